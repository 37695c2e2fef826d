"""Whether a workaround's ``how`` runs as pasted at a shell prompt, in bash and in zsh.

A copied recipe is pasted at a prompt. zsh, the macOS default shell, differs from bash there
in two ways that break recipes written and tried in bash:

- ``#`` starts a comment at zsh's prompt only with ``setopt interactivecomments``, which is
  off by default: ``newgrp docker   # or log in again`` hands ``#``, ``or``, ``log``... to
  ``newgrp``, and ``. venv/bin/activate  # NumPy < 1.24`` reads input from a file named
  ``1.24``. :func:`shell_comments` finds them.
- An unquoted word with ``*``, ``?`` or ``[...]`` is a file pattern, and zsh stops with "no
  matches found" when nothing matches, where bash passes the word on: ``--include=*.py``,
  ``pip install transformers[torch]``. :func:`zsh_glob_words` finds the usual ones.

And where a shell reads a paste line by line (no bracketed paste: bash before 5.1, so many
servers), a command that asks questions at the terminal (``aws configure``, ``gh auth login``,
``su -``, ``docker exec -it``, or a package manager's "Do you want to continue? [Y/n]" without
``-y``) takes the pasted lines after it as its answers; such a command goes last, or is told
yes (:func:`waiting_commands`).

Only recipes that read as shell are judged: not Python, not PowerShell, and every command line
starting like a command (a lower-case program name or a path, an assignment, a placeholder)
and not like code in another language (``const x =``, ``key: value``, a line ending in ``;``
or ``{``, ``name.key=value`` of a properties file). Python, YAML, PowerShell and the rest
keep their comments, since they are pasted into files or shells that read them.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator

from .placeholders import PLACEHOLDER, examples, find, group_bodies, group_characters

# A shell command line starts with a program or path (`pip`, `python3.11`, `~/.local/bin/x`,
# `"$JAVA_HOME/bin/java"`), an assignment (`CUDA_HOME=/usr/local/cuda`), `$(`, a
# subshell `(` or a placeholder; code in other languages gives itself away by its first word
# or its last character.
_COMMAND_START = re.compile(
    r"^(?:[a-z][\w.+-]*(?:\s|$)|[A-Za-z_][A-Za-z0-9_]*=|[.~]?/|\.\\|\.\s+\S|\$\(|\(|\{=|[a-z][\w.+-]*\{=)")
_OTHER_LANGUAGE = re.compile(
    r"^(?:(?:import|from|def|class|const|let|var|function|fn|use|pub|struct|impl|package|func|return"
    r"|public|private|static|async|await|del|print|assert|raise|try|except|with|elif|lambda|yield"
    r"|module\.exports|export\s+(?:default|const|function|class|type|interface))\b"
    r"|@\w|[-{}\[\]<%]|\w+(?:\.\w+)+\s*[-+*/]?=|\w+\s*[-+*/]?=\s|\w+(?:\.\w+)*\(|\w[\w-]*:(?:\s|$))")
_CODE_END = re.compile(r"[;{}(,]\s*$")
# `$env:`, or a cmdlet: an approved verb, a dash, a noun (`Set-ExecutionPolicy`); a bare
# `Hello-World` in a URL or folder name is not one.
_POWERSHELL = re.compile(
    r"(?i:\$env:)|\b(?:Get|Set|New|Remove|Add|Clear|Copy|Move|Rename|Start|Stop|Restart|Test|Invoke"
    r"|Import|Export|Select|Where|ForEach|Write|Out|Enable|Disable|Install|Uninstall|Update"
    r"|Register|Unregister|Resolve|Convert|ConvertTo|ConvertFrom|Expand|Compress|Measure|Sort"
    r"|Format|Join|Split|Push|Pop|Read|Wait|Find|Save|Show|Unblock)-[A-Z][A-Za-z]+\b")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")  # '...', or "..." with \" inside
_CONTINUES = ("\\", "|", "&&", "||")
_COMMENT_MARKS = ("#", "//", "::", "<!--", "REM ", "--")
_PYTHON_BLOCK = re.compile(r":[ \t]*$", re.MULTILINE)
_SHELL_KEYWORDS = re.compile(r"^(?:if|then|else|elif|fi|for|while|until|do|done|case|esac)\b")
# A `--option=*.ext` value, or a package's extras after pip/uv/poetry install or add.
_GLOB_WORDS = re.compile(
    r"(?:^|\s)(--[\w-]+=[^\s]*[*?\[][^\s]*)"
    r"|^(?:sudo\s+)?(?:pip3?|pipx|uv(?:\s+pip)?|poetry|python3?\s+-m\s+pip)\s+(?:install|add)\b"
    r".*?\s([\w.-]+\[[\w,. -]*\])")


def _example_text(how: str) -> str:
    """``how`` with each placeholder replaced by its example (or its name)."""
    return PLACEHOLDER.sub(lambda m: m.group(2) or m.group(1), how)


def _outside_heredocs(text: str) -> Iterator[str]:
    """The stripped, non-blank lines of ``text`` that the shell reads as commands: heredoc
    bodies (data, up to their delimiter line) are left out."""
    heredoc_end: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if heredoc_end is not None:
            heredoc_end = None if line == heredoc_end else heredoc_end
            continue
        if not line:
            continue
        yield line
        if not line.startswith("#") and (doc := _HEREDOC.search(line)):  # the delimiter is often quoted
            heredoc_end = doc.group(1)


def _shell_lines(how: str) -> list[str] | None:
    """The lines of ``how`` (placeholders shown by their examples, heredoc bodies left out,
    comment lines kept) if it reads as shell; None if it is some other language."""
    text = _example_text(how)
    # '#' starts a comment in PowerShell too, so a PowerShell command named in a comment
    # does not make the recipe PowerShell.
    code = "\n".join(_uncommented(line) for line in text.splitlines())
    if _POWERSHELL.search(code):
        return None
    lines: list[str] = []
    continued = False
    for line in _outside_heredocs(text):
        if line.startswith("#"):
            if line.startswith(("#!", "#include", "#[", "#define", "#pragma")):
                return None  # a script, C or Rust
            lines.append(line)
            continue
        bare = _QUOTED.sub("''", line)
        if _SHELL_KEYWORDS.match(bare):
            # `for x in &v {` is a Rust loop; a shell loop line ends in `do`, `;` or a word.
            if not continued and bare.rstrip().endswith(("{", "}")):
                return None
        elif not continued and (
                # a quoted program path (`"$JAVA_HOME/bin/java" -version`) is blanked in `bare`
                not (_COMMAND_START.match(bare) or line.startswith('"$'))
                or _OTHER_LANGUAGE.match(bare) or _CODE_END.search(bare)):
            return None
        lines.append(line)
        continued = bare.rstrip().endswith(_CONTINUES)
    if all(line.startswith("#") for line in lines):
        return None  # only comments: nothing to run, in whatever language
    # Python blocks can pass the line tests (`for x in rows:` starts like a shell loop); the
    # parse that tells them apart is the dearest test, so only a recipe with a line ending in
    # ':' gets it.
    return None if _PYTHON_BLOCK.search(text) and _parses_as_python(text) else lines


def _parses_as_python(text: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            return False
    return True


def shell_comments(how: str) -> list[str]:
    """The ``#`` comments of ``how`` if it is a shell recipe, else nothing."""
    return _comments(_shell_lines(how) or [])


def _comments(lines: list[str]) -> list[str]:
    return [line[at:].strip() for line in lines if (at := _comment_start(line)) is not None]


def _uncommented(line: str) -> str:
    """``line`` without its comment."""
    return line[:_comment_start(line)]


def _comment_start(line: str) -> int | None:
    """Where an unquoted ``#`` starts a word in ``line`` (a comment in bash), else None."""
    quote = None
    for index, char in enumerate(line):
        if quote == "'":
            quote = None if char == "'" else quote
        elif quote == '"':
            if char == '"' and line[index - 1] != "\\":
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return index
    return None


def zsh_glob_words(how: str) -> list[str]:
    """Unquoted words in the lines of ``how`` that zsh would try to match as files."""
    found = []
    for line in how.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "//")):
            continue
        bare = _QUOTED.sub("''", _uncommented(line))
        found += [word for match in _GLOB_WORDS.finditer(bare) for word in match.groups() if word]
    return found


# No yes flag anywhere on the line: -y (alone or in a cluster such as -qy), --yes,
# --assume-yes (apt), --assumeyes (dnf, yum).
_NO_YES = r"(?!.*\s-[a-zA-Z]*y[a-zA-Z]*(?:\s|$))(?!.*\s--(?:yes|assume-?yes)\b)"
# Commands that read the terminal for answers or a session; the pasted lines after them are
# typed into them. Kept to forms that always wait (no -c/-e/-f, no command after ssh's host).
_WAITS = re.compile(
    r"^(?:[A-Za-z_]\w*=\S*\s+)*(?:sudo\s+)?(?:"
    r"aws\s+configure(?:\s+--profile\s+\S+)?\s*$|gh\s+auth\s+login\b|az\s+login\b|npm\s+(?:login|adduser)\b"
    r"|docker\s+login(?!.*--password-stdin)\b|(?:docker|podman)(?:\s+compose)?\s+(?:exec|run)\s+(?:\S+\s+)*-(?:it|ti)\b"
    r"|kubectl\s+exec\s+(?:\S+\s+)*-(?:it|ti)\b|ssh\s+(?:-\S+\s+(?:\S+\s+)?)*[\w.@-]+\s*$"
    r"|psql\b(?!.*\s-[cf]\s)(?!.*<)|mysql\b(?!.*\s-e\s)(?!.*<)|redis-cli\s*$|(?:python3?|node)\s*$"
    r"|passwd\b|visudo\b|crontab\s+-e\b|git\s+rebase\s+-i\b|git\s+commit\s*$"
    r"|su(?:\s+-)?(?:\s+[\w.-]+)?\s*$|sudo\s+(?:-[is]|su)\b"
    r"|ssh-keygen\b(?!.*\s-[RlFyeiDB]\b)(?!.*\s-N\s)|ssh-add\b(?!\s+-[lLdD]\b)"
    r"|(?:hf\s+auth|huggingface-cli|wandb)\s+login\b(?!.*--token)|gcloud\s+auth\s+login\b"
    r"|terraform\s+(?:apply|destroy|force-unlock)\b(?!.*\s-(?:auto-approve|force)\b)"
    # Package managers that ask "Do you want to continue? [Y/n]" / "Proceed ([y]/n)?" unless
    # told yes: a pasted line after them is read as the answer, and anything but "y" aborts.
    r"|apt(?:-get)?\b" + _NO_YES + r"(?:\s+-\S+)*\s+"
    r"(?:install|reinstall|remove|purge|upgrade|dist-upgrade|full-upgrade|autoremove)\b"
    r"|(?:dnf|yum)\b" + _NO_YES + r"(?:\s+-\S+)*\s+(?:install|reinstall|remove|erase|update|upgrade|autoremove)\b"
    r"|(?:conda|mamba)\b" + _NO_YES + r"(?:\s+-\S+)*\s+(?:create|install|remove|uninstall|update|upgrade)\b"
    r"|add-apt-repository\b" + _NO_YES
    + r"|(?:pip3?|python3?\s+-m\s+pip)\b" + _NO_YES + r"\s+uninstall\b"
    r"|pacman\s+-S\w*\b(?!.*--noconfirm))")


def waiting_commands(how: str) -> list[str]:
    """Lines of a shell recipe that wait for answers at the terminal with more lines after them."""
    return _waiting(_shell_lines(how) or [])


def _waiting(lines: list[str]) -> list[str]:
    commands = [line for line in lines if not line.startswith("#")]
    return [line for line in commands[:-1] if _WAITS.search(_QUOTED.sub("''", line))]


# What a shell does with these in an unquoted word: file patterns, a command's end, a pipe or
# redirection, a subshell, quoting. `~` and `$` are left out: a recipe writes `{=dir:~/app}`
# unquoted so that the shell expands it. A space in an example is left alone too (a prompted
# `{=command:cargo run}` is meant as words), but not in what a regex group can capture.
_SHELL_SPECIAL = set("*?[]&;|<>()'\"`\\")
# A URL's query string holds `?` and `&`.
_URL_NAME = re.compile(r"(?:^|_)ur[il](?:$|_)")


def unquoted_values(how: str, regex: str | None = None,
                    given: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """``(placeholder, reason)`` for each placeholder written unquoted in a shell recipe whose
    value can hold a character the shell acts on: named by the regex group that fills it, shown
    in its example (``given``: the record's examples, else the recipe's own), or a URL's query
    (``{=url}``)."""
    if "{=" not in how or _shell_lines(how) is None:
        return []
    return _unquoted(how, group_bodies(regex), examples(how) if given is None else given)


def _unquoted(how: str, bodies: dict[str, str], given: dict[str, str]) -> list[tuple[str, str]]:
    """:func:`unquoted_values` for a recipe already known to be shell."""
    out: list[tuple[str, str]] = []
    for line in _outside_heredocs(how):
        quoted = [match.span() for match in _QUOTED.finditer(line)]
        for placeholder in find(line):
            if any(start <= placeholder.start < end for start, end in quoted):
                continue
            if placeholder.name in bodies:
                chars = group_characters(bodies[placeholder.name]) & (_SHELL_SPECIAL | {" ", "\t"})
                reason = f"the regex group can capture {''.join(sorted(chars))!r}" if chars else ""
            elif given.get(placeholder.name) and (chars := set(given[placeholder.name]) & _SHELL_SPECIAL):
                reason = f"its example holds {''.join(sorted(chars))!r}"
            else:
                reason = "a URL's query holds '?' and '&'" if _URL_NAME.search(placeholder.name.lower()) else ""
            if reason:
                out.append((placeholder.written, reason))
    return out


def recipe_rules(hows: list[str], regex: str | None = None) -> list[tuple[str, str, str]]:
    """``(severity, field, message)`` for workaround recipes that would not run as pasted;
    ``regex`` is the record's, whose named groups fill the recipes' placeholders."""
    out = []
    bodies, given = group_bodies(regex), examples(*hows)
    for index, how in enumerate(hows):
        field = f"workarounds[{index}].how"
        lines = _shell_lines(how) or []
        if (comments := _comments(lines)):
            out.append(("warning", field,
                        f"a comment in a shell recipe ({comments[0][:40]!r}): zsh's prompt runs '#' and the "
                        "words after it as arguments; say it in the workaround's condition or action"))
        if (words := zsh_glob_words(how)):
            out.append(("warning", field,
                        f"{words[0]!r} unquoted: zsh stops with 'no matches found' unless files match it; "
                        "quote it"))
        written = [line.strip() for line in how.splitlines() if line.strip()]
        if written and all(line.startswith(_COMMENT_MARKS) for line in written):
            out.append(("warning", field, "only comments: the copy key would paste nothing to run; write the "
                                          "command, or put the text in the condition and leave 'how' empty"))
        for placeholder, reason in (_unquoted(how, bodies, given) if lines and "{=" in how else [])[:1]:
            out.append(("warning", field,
                        f"{placeholder} unquoted in a shell recipe, and {reason}: filled in, the shell would "
                        f"take it as a pattern, a command's end or several words; write \"{placeholder}\""))
        if (waiting := _waiting(lines)):
            out.append(("warning", field,
                        f"{waiting[0][:40]!r} asks at the terminal, so the lines pasted after it become its "
                        "answers; make it the last line and name the later steps in the condition"))
    return out
