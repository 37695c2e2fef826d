"""Wrapping record text: CJK by character, words whole, continuation marks, never too wide."""

from __future__ import annotations

import random

from rich.cells import cell_len
from rich.text import Text

from errkb_tui.wrap import CONTINUATION, line_count, wrap_spans, wrap_text

ZH = ("真正运行代码的那个解释器在自己的 sys.path 里找不到模块 X。最常见的情况是包装到了另一个解释器"
      "或虚拟环境里（命令行里的 `pip` 属于另一个 Python）")
URL = "pip install --index-url https://download.pytorch.org/whl/cu121 torch torchvision"


def lines(text: str, width: int, mark: str = "") -> list[str]:
    return wrap_text(Text(text), width, mark).plain.split("\n")


def test_chinese_wraps_by_character_and_fills_its_lines():
    shown = lines(ZH, 28)
    assert all(cell_len(line) <= 28 for line in shown)
    assert cell_len(shown[0]) == 28  # no early break: there is no space to break at
    assert "".join(shown).replace(" ", "") == ZH.replace(" ", "")


def test_closing_punctuation_never_starts_a_line():
    for width in range(10, 40):  # (narrower, a word like "Python）" itself must be folded)
        assert not any(line and line[0] in "。，）" for line in lines(ZH, width))


def test_a_url_is_not_broken_and_continuations_are_marked():
    shown = lines(URL, 50, CONTINUATION)
    assert "https://download.pytorch.org/whl/cu121" in "\n".join(shown).replace(CONTINUATION, "")
    assert any(line.endswith("https://download.pytorch.org/whl/cu121") or
               line.startswith(CONTINUATION + "https://") for line in shown)
    assert all(line.startswith(CONTINUATION) for line in shown[1:])
    assert all(cell_len(line) <= 50 for line in shown)


def test_a_word_wider_than_the_line_is_folded():
    shown = lines("x" * 70, 20, CONTINUATION)
    assert all(cell_len(line) <= 20 for line in shown)
    assert "".join(line.replace(CONTINUATION, "") for line in shown) == "x" * 70


def test_random_text_never_exceeds_the_width_and_keeps_every_character():
    rng = random.Random(11)
    alphabet = ["a", "b", "c", " ", "  ", "中", "文", "。", "/", "-", "https://x.org/abc", "很长的词"]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        width = rng.randint(4, 30)
        spans = wrap_spans(text, width, 2)
        assert all(cell_len(text[a:b]) <= (width if n == 0 else width - 2) for n, (a, b) in enumerate(spans)
                   if cell_len(text[a:b]) > 1)
        kept = "".join(text[a:b] for a, b in spans).replace(" ", "")
        assert kept == text.replace(" ", "")
        assert line_count(text, width, "↪ ") == len(spans)


def test_styles_survive_wrapping():
    text = Text("python -m pip install ")
    text.append("torchvision", style="bold")
    wrapped = wrap_text(text, 16, CONTINUATION)
    assert any(wrapped.plain[span.start:span.end] == "torchvision" for span in wrapped.spans)
