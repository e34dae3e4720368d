"""Views of results: rich tables and trees for people, JSON for scripts, dot and mermaid.

Rendering never computes: every view reads a result that the library already produced.
"""
