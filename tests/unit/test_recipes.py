"""Recipes that would not run as pasted at a zsh prompt (errkb_tui.recipes) and their lint."""

from __future__ import annotations

import pytest

from errkb_tui.lint import lint_record
from errkb_tui.model import Record
from errkb_tui.placeholders import group_characters
from errkb_tui.recipes import _shell_lines, shell_comments, unquoted_values, waiting_commands, zsh_glob_words


def test_zsh_glob_words_are_found_only_where_unquoted():
    assert zsh_glob_words('grep -rnE "np\\.float" --include=*.py .') == ["--include=*.py"]
    assert zsh_glob_words("grep -rn x --include='*.py' .") == []
    assert zsh_glob_words("pip install transformers[torch] accelerate") == ["transformers[torch]"]
    assert zsh_glob_words("pip install 'transformers[torch]'") == []
    assert zsh_glob_words("# pip install transformers[torch]") == []
    assert zsh_glob_words("x = arr[mask]") == []


def test_shell_comments_are_found_only_in_shell_recipes():
    assert shell_comments("newgrp docker   # or log out and back in") == ["# or log out and back in"]
    assert shell_comments("# first check\ngit status") == ["# first check"]
    assert shell_comments("git log --grep='fix #12'\ncurl https://x.org/#top") == []
    assert shell_comments("echo ${#PATH} $#") == []
    assert shell_comments('python -c "print(\\"a # b\\")"   # tab separated') == ["# tab separated"]
    assert shell_comments("import torch  # the model\nx = 1") == []
    assert shell_comments("for row in rows:  # each row\n    total += row") == []
    assert shell_comments("cat > app.yaml <<'EOF'\n# a YAML comment\nEOF\nkubectl apply -f app.yaml") == []
    assert shell_comments("cat >> ~/.ssh/config <<'EOF'\nHost github.com\n  Port 443\nEOF\nssh -T git@github.com   # test") == [
        "# test"]
    assert shell_comments("$env:PYTHONUTF8 = 1   # PowerShell") == []
    assert shell_comments("lsof -i :8080\n# PowerShell: Get-NetTCPConnection -LocalPort 8080") == [
        "# PowerShell: Get-NetTCPConnection -LocalPort 8080"]
    assert shell_comments("echo $JAVA_HOME   # PowerShell: $env:JAVA_HOME") == ["# PowerShell: $env:JAVA_HOME"]
    assert shell_comments("pip install {=package:requests}  # from the error") == ["# from the error"]
    assert shell_comments("nvcc --version   # the header's 'CUDA Version'") == ["# the header's 'CUDA Version'"]


def test_commands_that_wait_for_answers_must_come_last():
    assert waiting_commands("aws configure --profile dev\naws sts get-caller-identity") == [
        "aws configure --profile dev"]
    assert waiting_commands("aws sts get-caller-identity\naws configure --profile dev") == []
    assert waiting_commands("aws configure set region eu-west-1\naws configure list") == []
    assert waiting_commands("gh auth login\ngit push") == ["gh auth login"]
    assert waiting_commands("docker exec -it db sh\nls") == ["docker exec -it db sh"]
    assert waiting_commands("docker exec db ls /app\nls") == []
    assert waiting_commands("ssh -p 2222 me@host\nls") == ["ssh -p 2222 me@host"]
    assert waiting_commands("ssh me@host uptime\nls") == []
    assert waiting_commands("psql -U postgres -c 'select 1'\nls") == []
    assert waiting_commands("psql -U postgres\nls") == ["psql -U postgres"]
    assert waiting_commands("su -\nusermod -aG sudo alice") == ["su -"]
    assert waiting_commands("sudo usermod -aG sudo alice\nid alice") == []
    assert waiting_commands('ssh-keygen -t ed25519 -C "me@example.com"\ncat ~/.ssh/id_ed25519.pub') == [
        'ssh-keygen -t ed25519 -C "me@example.com"']
    assert waiting_commands("ssh-keygen -R example.com\nssh example.com uptime") == []
    assert waiting_commands("hf auth login\nhf auth whoami") == ["hf auth login"]
    assert waiting_commands("hf auth login --token hf_x\nhf auth whoami") == []
    assert waiting_commands("terraform force-unlock 1a2b\nterraform plan") == ["terraform force-unlock 1a2b"]
    assert waiting_commands("terraform apply -auto-approve\nterraform output") == []


@pytest.mark.parametrize(("how", "waits"), [
    # A package manager's "Do you want to continue? [Y/n]" takes the next pasted line as its
    # answer, and anything but "y" aborts the install.
    ("sudo apt-get install libpq-dev\npip install psycopg2", "sudo apt-get install libpq-dev"),
    ("sudo apt install --only-upgrade libstdc++6\nstrings x", "sudo apt install --only-upgrade libstdc++6"),
    ("sudo add-apt-repository ppa:deadsnakes/ppa\nsudo apt-get update", "sudo add-apt-repository ppa:deadsnakes/ppa"),
    ("conda create -n py310 python=3.10\nconda activate py310", "conda create -n py310 python=3.10"),
    ("CONDA_SUBDIR=osx-64 conda create -n x numpy\nconda activate x", "CONDA_SUBDIR=osx-64 conda create -n x numpy"),
    ("pip uninstall torch\npip install torch", "pip uninstall torch"),
    ("sudo dnf install gcc\nmake", "sudo dnf install gcc"),
    ("sudo yum update\nreboot", "sudo yum update"),
    # Told yes (alone, in a cluster, long form), or nothing to confirm: no wait.
    ("sudo apt-get install -y libpq-dev\nls", None),
    ("sudo apt-get -qy install libpq-dev\nls", None),
    ("sudo apt install --yes x\nls", None),
    ("sudo dnf install --assumeyes gcc\nmake", None),
    ("sudo add-apt-repository -y ppa:x/y\nsudo apt-get update", None),
    ("conda install -c conda-forge numpy --yes\nls", None),
    ("pip uninstall -y torch\npip install torch", None),
    ("sudo apt-get update\nsudo apt-get install -y x", None),
    ("apt list --installed\nls", None),
    # The last line may ask: the user is there to answer.
    ("sudo apt-get update\nsudo apt-get install x", None),
])
def test_a_package_manager_that_asks_to_confirm_must_be_told_yes_or_come_last(how: str, waits: str | None) -> None:
    assert waiting_commands(how) == ([waits] if waits else [])


def test_only_shell_recipes_are_judged():
    assert shell_comments("pwd && ls   # the folder you think?") == ["# the folder you think?"]
    assert shell_comments("python3.11 -m venv .venv   # NumPy < 1.24") == ["# NumPy < 1.24"]
    assert shell_comments("~/.local/bin/http --version   # pipx") == ["# pipx"]
    assert shell_comments("const x = require('y');  # not shell") == []
    assert shell_comments("services:\n  db:   # the database\n    image: postgres") == []
    assert shell_comments("server.port=8081   # application.properties") == []
    assert shell_comments("# Ensure every rank builds the same model.") == []  # only comments
    assert shell_comments("Ensure all ranks build the same model # before DDP.") == []  # prose
    # A dashed name in a URL or folder is not a PowerShell cmdlet; a cmdlet is.
    assert shell_comments("git clone https://github.com/octocat/Hello-World.git   # the repo") == ["# the repo"]
    assert shell_comments("Get-ChildItem Env:   # all variables") == []
    assert shell_comments("$Env:Path   # the search path") == []
    # `. file` sources a file; a quoted "$VAR/path" is a program.
    assert shell_comments(". ~/.nvm/nvm.sh   # loads nvm") == ["# loads nvm"]
    assert shell_comments('"$JAVA_HOME/bin/java" -version   # the JDK in use') == ["# the JDK in use"]
    # A loop keyword starts Rust and Go loops too; the brace that ends the line tells them apart.
    assert _shell_lines("for item in &items { /* uses item */ }\n// not: for item in items") is None
    assert _shell_lines("for f in *.log; do gzip \"$f\"; done") == ['for f in *.log; do gzip "$f"; done']


def test_validate_warns_on_shell_recipes_that_would_not_run_as_pasted() -> None:
    record = Record.model_validate({
        "id": "demo/one", "signature": "boom", "domain": "demo", "category": "runtime_error",
        "workarounds": [
            {"action": "Join the docker group", "how": "newgrp docker   # or log in again"},
            {"action": "Find the calls", "how": "grep -rn np.float --include=*.py ."},
            {"action": "In Python", "how": "import numpy as np  # the alias\nx = np.float64(1)"},
            {"action": "Log in", "how": "gh auth login\ngit push"},
            {"action": "Point it at the host", "how": "# Celery: broker_url = 'redis://10.0.0.16:6379/0'"},
        ]})
    found = [(field, message) for severity, field, message in lint_record(record)
             if severity == "warning" and field.endswith(".how")]
    assert [field for field, _ in found] == ["workarounds[0].how", "workarounds[1].how", "workarounds[3].how",
                                             "workarounds[4].how"]
    assert "zsh" in found[0][1] and "'# or log in again'" in found[0][1]
    assert "'--include=*.py'" in found[1][1]
    assert "'gh auth login'" in found[2][1] and "last line" in found[2][1]
    assert "only comments" in found[3][1]


def test_group_characters_names_what_a_class_or_literal_lets_in():
    assert group_characters(r"[\w.:\[\]-]+") == {".", ":", "[", "]", "-"}
    assert group_characters(r"[\w.-]+") == {".", "-"}
    assert group_characters(r"\d+\.\d+") == {"."}
    assert group_characters(r"[^\]]+") == set()  # negated: wide_part's business
    assert group_characters(r"[\w,. ]+") == {",", ".", " "}


def test_placeholders_whose_value_the_shell_would_act_on_must_be_quoted():
    # audit 8: a URL with a query, pasted into zsh, stopped at its '?'
    assert unquoted_values("curl -i {=url:http://localhost:3000/api/items}") == [
        ("{=url:http://localhost:3000/api/items}", "a URL's query holds '?' and '&'")]
    assert unquoted_values('curl -i "{=url:http://localhost:3000/api/items}"') == []
    assert unquoted_values("git clone '{=repo_url:https://x.org/a.git}'") == []
    # what the regex group can capture decides for a filled placeholder
    host = r"host key for (?P<host>[\w.:\[\]-]+) has changed"
    assert unquoted_values("ssh -o StrictHostKeyChecking=no {=user:me}@{=host}", host) == [
        ("{=host}", "the regex group can capture '[]'")]
    assert unquoted_values("pip install {=module}", r"No module named '(?P<module>[\w.]+)'") == []
    assert unquoted_values("ls {=dir}", r"in (?P<dir>[\w/ ]+):") == [("{=dir}", "the regex group can capture ' '")]
    # an example shows what a prompted value looks like; '~' and '$' are left for the shell
    assert unquoted_values("grep -rn {=pattern:np.float*} .") == [("{=pattern:np.float*}", "its example holds '*'")]
    assert unquoted_values("cd {=project_dir:~/app}\nexport P={=prefix:$HOME/.local}") == []
    assert unquoted_values("RUST_BACKTRACE=1 {=command:cargo run}") == []  # a command: meant as words
    # the example may be given in another recipe of the record
    assert unquoted_values("curl {=target}", None, {"target": "http://h/?a=1"}) == [("{=target}", "its example holds '?'")]
    # not shell, or not shell words: left alone
    assert unquoted_values("import requests\nrequests.get({=url:http://x/?a=1})") == []
    assert unquoted_values("cat > urls.txt <<'EOF'\n{=url:http://x/?a=1}\nEOF\nwc -l urls.txt") == []
    # `<<` in a comment starts no heredoc: the line after it is still shell
    assert unquoted_values("# see <<EOF in the docs\ncurl {=url:http://x/}") == [
        ("{=url:http://x/}", "a URL's query holds '?' and '&'")]


def test_validate_warns_on_an_unquoted_url_placeholder() -> None:
    record = Record.model_validate({
        "id": "demo/two", "signature": "Unexpected token '<'", "domain": "demo", "category": "runtime_error",
        "workarounds": [{"action": "See what the server sends", "how": "curl -i {=url:http://localhost:3000/api}"},
                        {"action": "Quoted", "how": 'curl -i "{=url}"'}]})
    found = [(field, message) for severity, field, message in lint_record(record)
             if severity == "warning" and field.endswith(".how")]
    assert [field for field, _ in found] == ["workarounds[0].how"]
    assert "{=url:http://localhost:3000/api} unquoted" in found[0][1] and "'?'" in found[0][1]
