#!/usr/bin/env bash
# Issue 27's measure of the agent guard on public guards' own test suites: "risky calls stopped
# at least 95%, safe calls untouched at least 95%". It reads each suite's commands out of a
# folder of clones (each named owner+name, a bare git dir or holding repo/) at a pinned commit,
# sends each as a Claude Code PreToolUse Bash call to `tollgate guard --agent claude` in a fresh
# repository, and counts: a command the suite expects to block is stopped when the answer is
# ask or deny; one it expects to allow is untouched when there is no answer. The suites' own
# expectations are theirs (some of their "allow" rows are allowed only under their options, a
# cwd fixture or a strict mode), so the numbers are a comparison, not a verdict.
# Suites (repository, pinned commit, what is read):
#   Dicklesworthstone/destructive_command_guard 1a52415130fffec249e3c8adde72f58e3c4d6de0:
#     tests/corpus/**/*.toml, every [[case]] with a command (expected or expected_decision
#     allow or deny);
#   kenryu42/cc-safety-net ac31f4e98b58af062b62d9da879de14082219aa4: tests/**/*.ts, every
#     assertAllowed(...)/assertBlocked(...) whose first argument is a plain string literal.
# Needs python3 (3.11 or later, for tomllib).
# Usage: scripts/eval-guard-suites.sh CLONES_DIR [TOLLGATE_BINARY]   (SUITES_VERBOSE=1 lists
# every miss: the suite's expectation, tollgate's answer, its rule and the command)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clones=${1:?usage: scripts/eval-guard-suites.sh CLONES_DIR [TOLLGATE_BINARY]}
# shellcheck source=scripts/evallib.sh
. "$root/scripts/evallib.sh"
eval_setup evalguard "" "${2:-}"
git init -q "$work/project"

dcg=$(gitdir Dicklesworthstone+destructive_command_guard) || exit 2
ccsn=$(gitdir kenryu42+cc-safety-net) || exit 2

python3 - "$bin" "$work/project" "$dcg" 1a52415130fffec249e3c8adde72f58e3c4d6de0 "$ccsn" ac31f4e98b58af062b62d9da879de14082219aa4 <<'EOF'
import json, os, re, subprocess, sys, tomllib

tollgate, project, dcg, dcg_commit, ccsn, ccsn_commit = sys.argv[1:]

def git(d, *args):
    return subprocess.check_output(["git", "-C", d, *args]).decode()

def files(d, commit, under, ext):
    return [f for f in git(d, "ls-tree", "-r", "--name-only", commit, under).split() if f.endswith(ext)]

def dcg_cases():
    for f in files(dcg, dcg_commit, "tests/corpus/", ".toml"):
        for c in tomllib.loads(git(dcg, "show", f"{dcg_commit}:{f}")).get("case", []):
            want = c.get("expected_decision") or c.get("expected")
            if c.get("command") is not None and want in ("allow", "deny"):
                yield want, c["command"]

assertion = re.compile(r"assert(Allowed|Blocked)\(\s*('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`(?:[^`\\$]|\\.)*`)\s*[,)]")
escapes = {"n": "\n", "t": "\t"}

def ccsn_cases():
    for f in files(ccsn, ccsn_commit, "tests", ".ts"):
        for m in assertion.finditer(git(ccsn, "show", f"{ccsn_commit}:{f}")):
            cmd = re.sub(r"\\(.)", lambda x: escapes.get(x.group(1), x.group(1)), m.group(2)[1:-1])
            yield ("allow" if m.group(1) == "Allowed" else "deny"), cmd

def answer(cmd):
    call = {"session_id": "eval", "cwd": project, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": cmd}, "tool_use_id": "toolu_eval"}
    out = subprocess.run([tollgate, "guard", "--agent", "claude"], input=json.dumps(call).encode(),
                         capture_output=True, cwd=project).stdout.decode().strip()
    if not out:
        return "none", ""
    o = json.loads(out).get("hookSpecificOutput", {})
    rule = re.search(r"\[([^\]]+)\]$", o.get("permissionDecisionReason", ""))
    return o.get("permissionDecision", "?"), rule.group(1) if rule else ""

verbose = os.environ.get("SUITES_VERBOSE") == "1"
for name, cases in (("destructive_command_guard", dcg_cases()), ("cc-safety-net", ccsn_cases())):
    n = {"allow": 0, "deny": 0}
    ok = {"allow": 0, "deny": 0}
    for want, cmd in cases:
        got, rule = answer(cmd)
        n[want] += 1
        good = (got == "none") if want == "allow" else (got in ("ask", "deny"))
        ok[want] += good
        if verbose and not good:
            print(f"  {name}\twant {want}\tgot {got}\t{rule}\t{json.dumps(cmd)}")
    print(f"{name}: risky stopped {ok['deny']}/{n['deny']} ({100 * ok['deny'] / max(n['deny'], 1):.1f}%), "
          f"safe untouched {ok['allow']}/{n['allow']} ({100 * ok['allow'] / max(n['allow'], 1):.1f}%)")
EOF
