#!/usr/bin/env bash
# Wheel smoke test (called by .ci/run): e1prep as a new user gets it, away from this checkout.
#
# Builds the wheel, checks it holds the package data, installs it into a fresh venv, and from a
# folder that is not a checkout (no src/, prompts/, schemas/, evals/ or tests/ around it):
#   - drafts a copy of the bundled example with the rules backend, checks `schema --check`,
#     `verify`s the drafted JSON, and checks that `--backend llm` without the llm extra and
#     `eval` without --golden/--thresholds each give one line and exit 2;
#   - installs the llm extra with the recorded constraints and drafts with `--backend llm`
#     against a stdlib stub OpenAI-compatible server on 127.0.0.1 (scripts/stub_openai_server.py).
# Everything it writes stays under .ci-work/smoke/ (git-ignored). Registry access only for pip.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$ROOT/.ci-work/smoke
PYTHON=${PYTHON:-python3}
rm -rf "$WORK"
mkdir -p "$WORK/dist" "$WORK/outside"

fail() { echo "wheel_smoke: FAIL: $*" >&2; exit 1; }
say() { echo "wheel_smoke: $*" >&2; }

# a command that must fail with exit 2 and exactly one line on stderr, no traceback
one_line_exit_2() {
    local expect=$1; shift
    local rc=0
    "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || rc=$?
    [ "$rc" = 2 ] || { cat "$WORK/err.txt" >&2; fail "$* exited $rc, not 2"; }
    grep -q Traceback "$WORK/err.txt" && fail "$* printed a traceback"
    local last; last=$(tail -n 1 "$WORK/err.txt")
    [[ "$last" == *"$expect"* ]] || fail "$*: last line '$last' does not say '$expect'"
    say "ok (exit 2): $last"
}

# 1. build the wheel and look inside
"$PYTHON" -m pip wheel . --no-deps --quiet -w "$WORK/dist"
WHEEL=$(ls "$WORK"/dist/e1prep-*.whl)
"$PYTHON" -m zipfile -l "$WHEEL" | awk 'NR > 1 {print $1}' >"$WORK/wheel-files.txt"
for f in e1prep/py.typed e1prep/prompts/extract_material.md e1prep/schemas/brief.schema.json \
         e1prep/schemas/golden-case.schema.json e1prep/data/markers.toml e1prep/llm/backend.py e1prep/read/notes.py e1prep/verify/verifier.py \
         e1prep/brief/templates/review.html; do
    grep -qx "$f" "$WORK/wheel-files.txt" || fail "the wheel lacks $f"
done
grep -E '^(tests|evals|scripts)/' "$WORK/wheel-files.txt" && fail "the wheel holds checkout folders"
say "wheel $(basename "$WHEEL"): $(grep -vc 'dist-info' "$WORK/wheel-files.txt") package files"

# 2. a fresh venv with the wheel alone (the rules backend)
"$PYTHON" -m venv "$WORK/venv"
VPY=$WORK/venv/bin/python
"$VPY" -m pip install --quiet --upgrade pip
"$VPY" -m pip install --quiet "$WHEEL"
"$VPY" -m pip list --format=freeze --exclude pip --exclude setuptools >"$WORK/packages-base.txt"
grep -Eiq '^(openai|instructor|tenacity|vcrpy)==' "$WORK/packages-base.txt" && fail "the model stack came without the extra"
say "pip install e1prep: $(wc -l <"$WORK/packages-base.txt") packages ($(tr '\n' ' ' <"$WORK/packages-base.txt"))"

cd "$WORK/outside"
cp -r "$ROOT/evals/golden/2026-10-25-inference" example
where=$("$VPY" -c 'import e1prep; print(e1prep.__file__)')
[[ "$where" == "$WORK/venv/"* ]] || fail "e1prep imported from $where, not the smoke venv"
E1=$WORK/venv/bin/e1prep

"$E1" draft example/manifest.json --json brief.json --out brief.md 2>draft.err || { cat draft.err >&2; fail "rules draft"; }
grep -q DeepInfer brief.md || fail "the rules brief lacks DeepInfer"
"$VPY" -m e1prep schema --check || fail "schema --check reports drift against the packaged schemas"
"$E1" schema >schema.json && "$VPY" -c 'import json,sys; assert json.load(open("schema.json"))["title"] == "Brief"'
"$E1" verify brief.json --manifest example/manifest.json >verify.txt || { cat verify.txt >&2; fail "verify"; }
"$E1" review brief.json --manifest example/manifest.json --html review.html || fail "review"
grep -q 'id="src-m0-L1"' review.html || fail "the review page lacks its materials"
one_line_exit_2 "pip install 'e1prep[llm]'" "$E1" draft example/manifest.json --backend llm
one_line_exit_2 "--golden DIR and --thresholds FILE" "$E1" eval
say "ok: rules draft, schema --check, verify, review, one-line errors, from $(pwd)"

# 3. the llm extra, at the recorded versions, against a stub server on loopback
"$VPY" -m pip install --quiet "${WHEEL}[llm]" -c "$ROOT/constraints/llm-recorded.txt"
"$VPY" -m pip list --format=freeze --exclude pip --exclude setuptools >"$WORK/packages-llm.txt"
say "pip install 'e1prep[llm]': $(wc -l <"$WORK/packages-llm.txt") packages"
"$VPY" "$ROOT/scripts/stub_openai_server.py" --port-file "$WORK/stub.port" &
STUB=$!
trap 'kill "$STUB" 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$WORK/stub.port" ] && break; sleep 0.1; done
[ -s "$WORK/stub.port" ] || fail "the stub server did not start"
E1PREP_BASE_URL="http://127.0.0.1:$(cat "$WORK/stub.port")/v1" E1PREP_MODEL=stub-model E1PREP_API_KEY=sk-smoke-dummy \
    E1PREP_CACHE_DIR="$WORK/cache" E1PREP_RETRIES=0 \
    "$E1" draft example/manifest.json --backend llm --json llm.json --out llm.md 2>llm.err \
    || { cat llm.err >&2; fail "llm draft against the stub"; }
"$VPY" - <<'PY' || fail "the llm brief is not what the stub answered"
import json
brief = json.load(open("llm.json", encoding="utf-8"))
run = brief["run"]
assert run["backend"] == "llm" and run["model"] == "stub-model", run
assert run["usage"]["calls"] > 0, run["usage"]
assert not [s for s in brief["sources"] if s["status"] == "failed"], brief["sources"]
stub = [i for i in brief["increments"] + brief["rejected"] if "stub item" in json.dumps(i, ensure_ascii=False)]
assert stub, "nothing the stub answered reached the brief"
PY
say "ok: --backend llm drafted against the stub ($(tail -n 1 llm.err))"
