

# --- live pipes: gradcli as a coprocess ---------------------------------------------------


def _coprocess(*options: str) -> tuple[Any, queue.Queue[bytes]]:
    command = [sys.executable, "-m", "gradcli", "grad", "x*x", "--points", "-", *options]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in child.stdout], daemon=True).start()  # type: ignore[union-attr]
    return child, lines


@pytest.mark.parametrize("header", [b"x\n", b""])  # CSV, JSON Lines
def test_json_lines_answer_each_line_before_the_next_is_written(header):
    child, lines = _coprocess("--json")
    try:
        child.stdin.write(header)
        for x in [3.0, -4.0, 0.5, 1e-300]:
            child.stdin.write((f"{x!r}\n" if header else json.dumps({"x": x}) + "\n").encode())
            child.stdin.flush()
            answer = json.loads(lines.get(timeout=60))
            assert (answer["value"], answer["grad"]["x"]) == (x * x, 2 * x)
    finally:
        child.stdin.close()
        assert child.wait(timeout=60) == 0


def test_the_table_answers_each_line_before_the_next_is_written():
    child, lines = _coprocess()
    try:
        child.stdin.write(b"x\n")
        for x in [3.0, -4.0, 0.5]:
            child.stdin.write(f"{x!r}\n".encode())
            child.stdin.flush()
            row = lines.get(timeout=60)
            while "│".encode() not in row:  # the header and its rule come with the first row
                row = lines.get(timeout=60)
            cells = [cell.strip() for cell in row.decode().split("│")]
            assert [float(c) for c in cells[1:]] == pytest.approx([x * x, 2 * x], rel=1e-5)
    finally:
        child.stdin.close()
        assert child.wait(timeout=60) == 0
