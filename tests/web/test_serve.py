"""``yipan serve``: its arguments, and one clear line when the web extra is missing."""

from __future__ import annotations

import importlib.util

import pytest

from yipan.cli import serve
from yipan.cli.main import main


def test_serve_is_a_command(capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--help"])
    assert stopped.value.code == 0
    help_text = capsys.readouterr().out
    assert "--host" in help_text and "--port" in help_text and "--open" in help_text


def test_missing_web_extra_is_one_line_and_status_2(monkeypatch, capsys) -> None:
    real_find_spec = importlib.util.find_spec

    def without_fastapi(name: str, *args):
        return None if name == "fastapi" else real_find_spec(name, *args)

    monkeypatch.setattr(serve.importlib.util, "find_spec", without_fastapi)
    assert main(["serve", "--port", "8123"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "fastapi" in error and "yipan[web]" in error


@pytest.mark.parametrize(("argv", "words"), [
    (["serve", "--port", "0"], "port"),
    (["serve", "--port", "70000"], "port"),
    (["serve", "--port", "http"], "whole number"),
    (["serve", "--port", "٣"], "whole number"),  # an Arabic-Indic 3 is not port 3
    (["serve", "--port", "9" * 5000], "too large"),
    (["serve", "--searches", "0"], "--searches"),
    (["serve", "--host", "no-such-host.invalid"], "no such address"),
])
def test_bad_arguments_are_one_line_and_status_2(argv: list[str], words: str, capsys) -> None:
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and words in error


def test_a_taken_port_is_one_line_before_anything_is_served(capsys) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "cannot listen" in err
