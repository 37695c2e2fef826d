"""Placeholders: the syntax, filling, and that code in commands is never taken for one."""

from __future__ import annotations

import pytest

from errkb_tui.kb import Source, bundled_data_dir
from errkb_tui.loader import load_kb
from errkb_tui.placeholders import (
    Placeholder, examples, fill, find, group_names, has_placeholders, malformed, names,
    needs_quoting, record_examples, record_names, record_texts, shown, valid_name,
)


def test_find_names_and_examples() -> None:
    text = "kubectl logs {=pod} -n {=namespace:default} && kubectl describe pod {=pod}"
    found = find(text)
    assert [(p.name, p.example) for p in found] == [("pod", None), ("namespace", "default"), ("pod", None)]
    assert text[found[1].start:found[1].end] == "{=namespace:default}" == found[1].written
    assert names(text) == ["pod", "namespace"]
    assert examples(text) == {"namespace": "default"}
    assert has_placeholders(text) and not has_placeholders("plain text")


def test_example_may_hold_colons_slashes_and_spaces() -> None:
    (p,) = find("docker pull {=image:ghcr.io/acme/api:1.4.2}")
    assert (p.name, p.example) == ("image", "ghcr.io/acme/api:1.4.2")
    (p,) = find("git commit -m '{=message:fix the build}'")
    assert p.example == "fix the build"
    (p,) = find("{=value:}")  # an empty example is written, and is not an example
    assert p.example == "" and examples("{=value:}") == {}


def test_fill_literal_values_marks_spans_and_lists_missing() -> None:
    text = "python -m pip install {=module}  # then: import {=module}; {=other:x}"
    filled = fill(text, {"module": "torchvision"})
    assert filled.text == "python -m pip install torchvision  # then: import torchvision; {=other:x}"
    assert filled.missing == ("other",) and not filled.runnable
    assert [filled.text[a:b] for a, b, _ in filled.spans] == ["torchvision", "torchvision"]
    assert [name for _, _, name in filled.spans] == ["module", "module"]
    done = fill(text, {"module": "a", "other": "b"})
    assert done.runnable and done.missing == () and done.text.endswith("import a; b")


def test_values_are_never_rescanned() -> None:
    filled = fill("echo {=a} {=b}", {"a": "{=b}", "b": "$(rm -rf ~)"})
    assert filled.text == "echo {=b} $(rm -rf ~)"
    assert filled.runnable
    assert [filled.text[s:e] for s, e, _ in filled.spans] == ["{=b}", "$(rm -rf ~)"]


def test_fill_without_placeholders_and_empty_values() -> None:
    assert fill("ls -la", {"x": "1"}).text == "ls -la"
    assert fill("ls -la", {}).runnable
    filled = fill("a{=x}b", {"x": ""})
    assert filled.text == "ab" and filled.runnable and filled.spans == ((1, 1, "x"),)


def test_needs_quoting_and_names() -> None:
    assert not needs_quoting("torch.vision") and not needs_quoting("ghcr.io/acme/api:1.4")
    assert needs_quoting("a b") and needs_quoting("$(id)") and needs_quoting("x;y") and needs_quoting("")
    assert valid_name("module") and valid_name("_x1") and not valid_name("1x") and not valid_name("a-b")


def test_malformed_openers_are_reported_not_filled() -> None:
    assert malformed("{=bad name} {=ok} {=also-bad}") == [0, 18]
    assert find("{=bad name}") == []


def test_group_names() -> None:
    assert group_names(r"No module named '(?P<module>[\w.]+)' at (?P<path>\S+)") == ["module", "path"]
    assert group_names(r"(?:x)(?i)abc") == []
    assert group_names(None) == []


# Code people put in commands: none of it holds a placeholder.
HOSTILE = [
    # shell
    "echo ${HOME} ${VAR:-default} ${#arr[@]} $(uname -r) `date` $((1+2)) ${=words}",
    "for f in {a,b,c}.txt; do echo {}; done; find . -exec rm {} \\;",
    "cat <<EOF >> out.txt\n{x}\nEOF",
    "awk '{print $5}' | sort | uniq -c; sed -n '/Events:/,$p'",
    # Python
    "f'{name}' f'{x=}' f'{x!r:>10}' '{0} {k}'.format(1, k=2) {'a': 1, **kw} {x for x in y}",
    "d = {}; d['k'] = {'=': 1}; print(f'{value = }')",
    # JS / TS / JSX
    "const {a = 1, ...rest} = obj; `${x}` ; let y = {[k]: v}; ({}) => ({})",
    "function f<T extends {id: number}>(x: T): Promise<Array<T>> { return x as any }",
    "<TodoItem key={todo.id} todo={todo} /> <p className='x'>{summary}</p> <>{children}</>",
    "document.querySelector<HTMLInputElement>('#email'); type A = Record<string, {=: never}>",
    # Go, Go templates, Jinja, Helm, Docker, Mustache, doT
    'fmt.Printf("%s %d %v %q\\n", a, b, c, d); m := map[string]int{"a": 1}',
    "docker ps --format '{{.ID}}\\t{{.Names}}' {{ .Values.image }} {{- if .x }}{{ end }}",
    "{% for x in y %}{{ x|e }}{% endfor %}{# comment #} {{=it.name}} {{=<% %>=}}",
    "${{ secrets.TOKEN }} $(Build.SourcesDirectory) $[variables.x]",
    # PowerShell, batch, Ruby, PHP, Rust, Java, C#
    "$h = @{Name='x'; Count=1}; & { $_ } ; @(1,2) ; %{ $_.Name }; %PATH% %%i",
    "puts \"#{name}\" ; \"{$var}\" ; <%= x %> ; <?php echo $x ?>",
    "let v: Vec<u8> = vec![]; println!(\"{} {:?} {name} {0:>5}\", a); foo::<{ N }>()",
    "Map<String, List<Foo>> m = new HashMap<>(); $\"{x}\"; String.format(\"%s\", y)",
    # kubectl jsonpath, PromQL, YAML, JSON, HTML, printf
    "kubectl get pod -o jsonpath='{..secretKeyRef}{\"\\n\"}{range .items[*]}{.name}{end}'",
    'rate(http_requests_total{job="api",code=~"5.."}[5m]) ; {"imagePullSecrets":[{"name":"regcred"}]}',
    "startupProbe: {httpGet: {path: /healthz, port: 8080}} ; <!DOCTYPE html><div id=\"a\">{x}</div>",
    "printf '%s\\n' \"$x\"; printf '%-10s %5.2f' a 1",
]


@pytest.mark.parametrize("code", HOSTILE)
def test_hostile_code_holds_no_placeholder(code: str) -> None:
    assert find(code) == []
    assert fill(code, {"x": "X", "name": "N", "a": "A"}).text == code


@pytest.fixture(scope="module")
def bundled_records() -> list:
    kb = load_kb([Source(bundled_data_dir(), "bundled")])
    return [kb.get(summary.id) for summary in kb.records]


def test_every_bundled_placeholder_is_meant(bundled_records: list) -> None:
    """Each placeholder in a bundled text was written as one: a group fills it or it has an
    example to prompt with; and no ``{=`` stands outside a placeholder."""
    for record in bundled_records:
        groups = set(group_names(record.regex))
        prompted = set(record_examples(record))
        for field, text in record_texts(record):
            assert malformed(text) == [], (record.id, field)
            for placeholder in find(text):
                assert placeholder.name in groups | prompted, (record.id, field, placeholder)
        assert set(record_names(record)) >= groups, (record.id, "a group nothing uses")


def test_bundled_texts_without_placeholders_are_untouched_by_fill(bundled_records: list) -> None:
    for record in bundled_records:
        for field, text in record_texts(record):
            if not has_placeholders(text):
                assert fill(text, {"x": "1"}).text == text, (record.id, field)


def test_placeholder_is_hashable() -> None:
    assert len({Placeholder("a", None, 0, 4), Placeholder("a", None, 0, 4)}) == 1


# -- lint rules -----------------------------------------------------------------------------

from errkb_tui.lint import lint_record  # noqa: E402
from errkb_tui.model import Record  # noqa: E402
from errkb_tui.placeholders import literal_placeholders, placeholder_rules  # noqa: E402


def record(regex: str, *hows: str) -> Record:
    return Record.model_validate({
        "id": "python/t", "signature": "ModuleNotFoundError: No module named 'X'", "domain": "python",
        "category": "import_error", "regex": regex,
        "workarounds": [{"action": f"step {i}", "how": how, "success_rate": 0.5} for i, how in enumerate(hows)],
    })


def messages(rec: Record) -> list[str]:
    return [f"{field}: {message}" for _, field, message in placeholder_rules(rec)]


def test_literal_placeholders_found_and_code_left_alone() -> None:
    found = [t for _, _, t in literal_placeholders(
        "kubectl logs <pod> -n <ns>\npip install X\nkill <PID>\npython your_script.py\n"
        "terraform force-unlock <LOCK_ID> # <version from requirements/README>")]
    assert found == ["<pod>", "<ns>", "X", "<PID>", "your_script.py", "<LOCK_ID>", "<version from requirements/README>"]
    code = ("X = np.asarray(X_train)\nprint(np.isnan(X).sum())\nadata.X = adata.X.astype('f')\n"
            "# (N, C, H, W) -> (N, C*H*W)\n<p className='x'><div>{s}</div></p>\n<ul><li>a</li></ul>\n"
            "List<Item> xs; querySelector<HTMLInputElement>('#a'); assertDefined<T>(v)\n"
            "<dependency><version>4.0</version></dependency>\n<body suppressHydrationWarning>")
    assert literal_placeholders(code) == []


def test_rules_on_a_record() -> None:
    good = record(r"No module named '(?P<module>[\w.]+)'", "pip install {=module}", "python {=script:main.py}")
    assert messages(good) == []
    assert messages(record(r"No module named '[\w.]+'", "pip install X")) == [
        "workarounds[0].how: 'X' looks like a placeholder that nothing fills: write {=name} (a regex group) or {=name:example}"]
    unfilled = messages(record(r"No module named '[\w.]+'", "pip install {=module}"))
    assert len(unfilled) == 1 and "{=module}" in unfilled[0] and "no regex group" in unfilled[0]
    unused = messages(record(r"No module named '(?P<module>[\w.]+)'", "pip install requests"))
    assert unused == ["regex: named group 'module' fills no placeholder"]
    twice = messages(record(r"No module named '(?P<m>\w+)'|cannot import name '(?P<m>\w+)'", "pip install {=m}"))
    assert twice == ["regex: named group 'm' appears 2 times: RE2 fills only the first"]
    broken = messages(record(r"No module named '[\w.]+'", "pip install {=bad name:x}"))
    assert len(broken) == 1 and "starts like a placeholder" in broken[0]


def test_rules_are_warnings_in_lint_record() -> None:
    rec = record(r"No module named '[\w.]+'", "kubectl logs <pod>", "pip install requests")
    assert ("warning", "workarounds[0].how",
            "'<pod>' looks like a placeholder that nothing fills: write {=name} (a regex group) or {=name:example}"
            ) in lint_record(rec)


def test_lower_layers_stay_free_of_textual() -> None:
    import subprocess
    import sys
    code = ("import sys, errkb_tui.placeholders, errkb_tui.lint\n"
            "print([m for m in sys.modules if m.split('.')[0] == 'textual'])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_wide_groups_are_warned_about() -> None:
    from errkb_tui.placeholders import group_bodies, wide_part

    assert group_bodies(r"a (?P<x>[\w.-]+) b (?P<y>(?:c|d)\)) (?P<z>[\]x]+)") == {
        "x": r"[\w.-]+", "y": r"(?:c|d)\)", "z": r"[\]x]+"}
    assert [wide_part(b) for b in (r"[\w.-]+", r"\d+", r"[a-z0-9][-a-z0-9.]*", r"[\w.:\[\]-]+")] == [None] * 4
    assert [wide_part(b) for b in (r"\S+", r".+", r"[^']+", r"\s*\w+", r"\W")] == ["\\S", ".", "[^...]", "\\s", "\\W"]
    wide = messages(record(r"Host key for (?P<host>\S+) has changed", "ssh-keygen -R '{=host}'"))
    assert wide == ["regex: named group 'host' can capture any character (\\S): its value goes into a command "
                    "as is, so allow only the characters it needs (e.g. [\\w.-]+)"]


def test_shown_reads_placeholders_as_names_and_leaves_code_alone() -> None:
    assert shown("Error from server (Forbidden): {=resource} is forbidden") == (
        "Error from server (Forbidden): \u2039resource\u203a is forbidden")
    assert shown("fixture '{=fixture:tmp_path}' not found") == "fixture '\u2039fixture\u203a' not found"
    # zsh's ${=var}, doT's {{=x}} and a malformed opener are text, as everywhere else
    assert shown("echo ${=words} {{=x}} {=1bad}") == "echo ${=words} {{=x}} {=1bad}"
    assert shown("no placeholder") == "no placeholder"
