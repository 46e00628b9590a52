#!/usr/bin/env bash
# Fits the prompt-injection scorer's weights (review/injection/weights_gen.go) on public
# training sets read at pinned commits of a folder of clones (like scripts/eval-injection.sh),
# with scripts/injfit: attacks are the tuning sets of eval-injection.sh in the threat model's
# classes 1-3 (BIPIA's code-insertion train split; greshake's scenarios hold their payloads in
# Python string literals, which the scorer does not read) and the hand-written
# class 1-3 texts of scripts/injfit/testdata (no public corpus has reviewer coercion); not the
# chat overrides, jailbreaks and games (garak, promptmap, TakSec, pallms, Tensor Trust: class 5,
# which the phrase checks keep). Benign are LLM
# documentation and prompt collections tuned on before (the Prompt Engineering Guide in
# English, awesome-chatgpt-prompts, tldrsec's defenses, PIPE, rebuff, TheBigPromptLibrary's
# system prompts, llm-guard's benign prompts, PromptInject's base prompts) and the code and
# documentation of five projects outside the history evaluation (aider, fastapi, compose,
# invoke, laravel's framework), and agent files of projects outside it (amplihack's Claude
# agents and commands, the AGENTS.md and CLAUDE.md of garak, destructive_command_guard and
# cc-safety-net). No held-out set of eval-injection.sh is read.
# The fit is deterministic: the same clones give the same file.
# Usage: scripts/fit-injection.sh CLONES_DIR [OUT] (OUT defaults to review/injection/weights_gen.go)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
clones=${1:?usage: scripts/fit-injection.sh CLONES_DIR [OUT]}
out=${2:-$root/review/injection/weights_gen.go}
# shellcheck source=scripts/evallib.sh
. "$root/scripts/evallib.sh"
# FIT_WORK=DIR keeps the staged samples there (and reuses them when DIR exists).
if [ -n "${FIT_WORK:-}" ]; then
	work=$FIT_WORK
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/tollgate-fit.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
export INJ_ROOT="$root"

# label | repository | commit | mode[:odd|even] | ext | skip | paths (;-separated)
sets='pos|microsoft+BIPIA|1a2a91da6bb12838e05d1b2e54d98e2f37b835f3|json-dict-lists|||benchmark/code_attack_train.json
neg|dair-ai+Prompt-Engineering-Guide|3d96678f28793e6f23ac6c0127799489f2c9022b|file|.en.mdx,.md||pages;README.md
neg|f+awesome-chatgpt-prompts|f14bb05f1f382166030420535a2fc0c84ff2bb05|file|.md,.mdx,.txt,.json,.yml||src/content;plugins;README.md;CLAUDE.md;AGENTS.md
neg|tldrsec+prompt-injection-defenses|423a2f36a979858223ba5c6dfede8409c8d0fb63|file|.md||.
neg|jthack+PIPE|2fc336f24ef0189ae4b94f5adb6b80113ea8e4dc|file|.md||.
neg|protectai+rebuff|4d2fe064abf164e7381556d23e48e210080f8afa|file|.md||.
neg|0xeb+TheBigPromptLibrary|655667d2dd43bad65f189ec49d8606bf3e8d967e|file|.md||SystemPrompts
neg|protectai+llm-guard|53af270c69316ed82cb71ba7b19d11b55bda3151|py-params-good|||tests/input_scanners/test_prompt_injection.py
neg|NVIDIA+garak|cafbe992780df70015de7295ca026b70c4629ada|py-base|||garak/resources/promptinject/prompt_data.py
neg|Aider-AI+aider|5dc9490bb35f9729ef2c95d00a19ccd30c26339c|file|.py,.md||aider
neg|fastapi+fastapi|c3f316b7e814667e8ee81e03a7330d00ee61e45c|file|.md,.py||docs/en/docs;fastapi
neg|docker+compose|f72979427042620a94dd52ce78b39c68cb02c085|file|.md,.go,.yaml,.yml||.
neg|pyinvoke+invoke|6a71e680c535ba6520e935c497099fbca011d03c|file|.py,.rst,.md||.
neg|laravel+framework|bd71b45fbb7e672957bf6ff61baddefe15fbca6a|file|.php,.md||src/Illuminate/Support;src/Illuminate/Foundation
neg|rysweet+amplihack|8639ee48486e0497ccaebe0cb61afe10917c51c9|file|.md||.claude/agents;.claude/commands
neg|Dicklesworthstone+destructive_command_guard|1a52415130fffec249e3c8adde72f58e3c4d6de0|file|.md||AGENTS.md
neg|kenryu42+cc-safety-net|ac31f4e98b58af062b62d9da879de14082219aa4|file|.md||AGENTS.md;CLAUDE.md
neg|NVIDIA+garak|cafbe992780df70015de7295ca026b70c4629ada|file|.md||AGENTS.md'

i=0
[ -d "$work/pos" ] || while IFS='|' read -r label src commit mode ext skip paths; do
	dir=$(gitdir "$src") || exit 1
	IFS=';' read -r -a plist <<<"$paths"
	part=
	case $mode in *:*) part=${mode#*:} mode=${mode%%:*} ;; esac
	i=$((i + 1))
	n=$(go run "$root/scripts/injcorpus.go" -git "$dir" -commit "$commit" -mode "$mode" -part "$part" -ext "$ext" -skip "$skip" -out "$work/$label/$i-$src" -- "${plist[@]}")
	echo "fit-injection: $label $src@${commit:0:12}: $n samples" >&2
done <<<"$sets"
mkdir -p "$work/pos/hand" "$work/neg/hand"
cp "$root/scripts/injfit/testdata/train-attacks.tsv" "$work/pos/hand/"
cp "$root/scripts/injfit/testdata/train-benign.tsv" "$work/neg/hand/"
(cd "$root" && go run scripts/injfit.go -pos "$work/pos" -neg "$work/neg" -out "$out")
