from gradcli.cli import main

main()
