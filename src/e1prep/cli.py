"""The command line: a thin shell over the Python API. ``main(argv) -> int`` so tests call it."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from ._version import __version__
from .brief.outputs import Target, check_targets, write_all
from .brief.safetext import TerminalSafeFormatter, terminal_safe
from .errors import E1PrepError, InputError, Interrupted

if TYPE_CHECKING:
    from .brief.models import Brief
    from .llm.settings import LLMSettings
    from .produce.producer import Producer

log = logging.getLogger("e1prep")
LOG_FORMAT = "e1prep: %(levelname)s: %(message)s"

EXAMPLES = """\
examples:
  python -m e1prep draft evals/golden/2026-10-25-inference/manifest.json
  python -m e1prep draft MANIFEST --json brief.json --out brief.md --lang en
  python -m e1prep draft MANIFEST --json - | jq .increments     # stdout: the JSON alone
  python -m e1prep draft evals/golden/2026-10-25-inference/manifest.json --backend llm \
      --cassette tests/cassettes/llm/2026-10-25-inference__extract_material-v1.yaml
  E1PREP_BASE_URL=http://127.0.0.1:8000/v1 E1PREP_MODEL=my-model python -m e1prep draft MANIFEST --backend llm
  python -m e1prep draft MANIFEST --json brief.json --html review.html   # the brief beside its materials
  python -m e1prep verify brief.json --manifest MANIFEST
  python -m e1prep review brief.json --manifest MANIFEST --html review.html
  python -m e1prep lint brief.md
  python -m e1prep eval --backend rules --report eval-report.json
  python -m e1prep schema --check

the KB and manifest e1prep reads: docs/kb-contract.md (in a checkout)
"""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="e1prep",
        description="Draft and verify E1 pre-digestion briefs.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"e1prep {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log progress and warnings on stderr")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("draft", help="draft a brief from a work-guard manifest")
    d.add_argument("manifest", help="the work-guard manifest (JSON)")
    d.add_argument("--kb", help="KB root (default: the manifest's folder)")
    d.add_argument("--item", help="manifest item id (default: the only one)")
    d.add_argument(
        "--backend",
        choices=("rules", "llm"),
        default="rules",
        help="who reads the materials: rules (deterministic, offline; the default) or llm (a model behind an "
        "OpenAI-compatible server: E1PREP_MODEL, E1PREP_BASE_URL; needs pip install 'e1prep[llm]'); "
        "either way the rules' facts are merged in and everything is verified",
    )
    d.add_argument(
        "--out",
        metavar="FILE",
        help="the Markdown brief: a file, or - for stdout (the default, unless --json is -: then the Markdown "
        "is written only when --out names a file)",
    )
    d.add_argument(
        "--json",
        dest="json_out",
        metavar="FILE",
        help="also write the brief as JSON: a file, or - (or /dev/stdout) for stdout; "
        "--json - with --out - is refused (one stream, one document)",
    )
    d.add_argument(
        "--html",
        metavar="FILE",
        help="also write the review page: one self-contained HTML file, the brief beside its materials, each claim "
        "linked to its line; a file, or - for stdout (then the Markdown is written only when --out names a file)",
    )
    d.add_argument(
        "--lang",
        choices=("zh", "en"),
        default="zh",
        help="language of every sentence and label the tool writes, in the Markdown and the JSON: zh (the default) "
        "or en; the KB's own text stays as written",
    )
    d.add_argument("--strict", action="store_true", help="exit 1 when the verifier rejected or repaired anything")
    d.add_argument("--concurrency", type=int, help="llm backend: materials extracted at once (default 4)")
    d.add_argument("--no-cache", action="store_true", help="llm backend: do not read or write the cache")
    d.add_argument("--cache-dir", help="llm backend: cache folder (default: $XDG_CACHE_HOME/e1prep/llm)")
    d.add_argument(
        "--cassette",
        metavar="FILE",
        help="llm backend: replay this recorded cassette (listed in the MANIFEST.json beside it) instead of "
        "asking a server; offline; needs the replay extra: pip install 'e1prep[replay]'",
    )

    d.add_argument(
        "--extractions",
        metavar="FILE",
        help="draft from the items someone already extracted (a v2 extraction set, schemas/extraction.schema.json, "
        "e.g. written by an agent with its own model); merged with the rules' facts and verified; no model is called",
    )

    v = sub.add_parser("verify", help="check a brief JSON written by anyone against its KB")
    v.add_argument("brief", help="brief JSON")
    v.add_argument("--manifest", required=True, help="the work-guard manifest the brief was drafted from")
    v.add_argument("--kb", help="KB root (default: the manifest's folder)")
    v.add_argument("--item", help="manifest item id (default: the only one)")

    r = sub.add_parser(
        "review", help="write the review page of a brief JSON: the brief beside its materials, each claim at its line"
    )
    r.add_argument("brief", help="brief JSON (as written by draft --json, or by anyone; checked against the schema)")
    r.add_argument("--manifest", required=True, help="the work-guard manifest the brief was drafted from")
    r.add_argument("--kb", help="KB root (default: the manifest's folder)")
    r.add_argument("--item", help="manifest item id (default: the only one)")
    r.add_argument("--html", metavar="FILE", help="where to write the page: a file, or - for stdout (the default)")
    r.add_argument(
        "--lang", choices=("zh", "en"), default="zh", help="language of the evidence labels: zh (the default) or en"
    )

    li = sub.add_parser("lint", help="list quantities without an evidence marker in a hand-written brief")
    li.add_argument("brief", help="a Markdown (or text) brief")

    s = sub.add_parser(
        "schema",
        help="print the brief's JSON Schema, write every schema into --out DIR, or --check the packaged ones",
    )
    s.add_argument("--check", action="store_true", help="exit 1 when the packaged schemas drifted from the models")
    s.add_argument("--out", metavar="DIR", help="write every *.schema.json into DIR (a checkout's: src/e1prep/schemas)")

    e = sub.add_parser("eval", help="score a backend against the golden cases")
    e.add_argument(
        "--backend",
        choices=("rules", "llm", "reference"),
        default="rules",
        help="rules; llm (replayed from the cassettes); reference (the reference extractions through the agent API)",
    )
    e.add_argument("--case", action="append", dest="cases", help="case name (repeatable; default: all)")
    e.add_argument("--report", help="write the JSON report here")
    e.add_argument("--golden", metavar="DIR", help="golden cases folder (default: evals/golden of the checkout)")
    e.add_argument(
        "--thresholds", metavar="FILE", help="thresholds TOML (default: evals/thresholds.toml of the checkout)"
    )
    e.add_argument(
        "--cassettes", metavar="DIR", help="llm backend: cassette folder (default: tests/cassettes/llm of the checkout)"
    )
    e.add_argument(
        "--prompt",
        metavar="ID",
        help="llm backend: replay the cassettes recorded with this prompt (default: extract_material, the small "
        "model's; extract_items is v2), gated by [llm.prompt.ID] in the thresholds",
    )
    e.add_argument(
        "--reference", metavar="DIR", help="reference backend: extractions folder (default: evals/reference)"
    )
    e.add_argument(
        "--gate",
        action="store_true",
        help="with --case: check the thresholds on the cases named (without it, thresholds are for the whole set)",
    )
    e.add_argument(
        "--variants-dir",
        metavar="DIR",
        help="rules backend: where the layout variants of the golden cases are written (default: a temporary folder)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format=LOG_FORMAT, stream=sys.stderr)
    for h in logging.getLogger().handlers:  # log records carry KB text: one line each, no control characters
        if isinstance(h, logging.StreamHandler) and h.stream is sys.stderr:
            h.setFormatter(TerminalSafeFormatter(LOG_FORMAT))
    # instructor logs the model's whole answer at ERROR on every failed attempt; the brief reports failures
    logging.getLogger("instructor").setLevel(logging.INFO if args.verbose else logging.CRITICAL)
    with _one_interrupt():
        try:
            with _terminate_as_interrupt():
                handler = {
                    "draft": _draft,
                    "verify": _verify,
                    "review": _review,
                    "lint": _lint,
                    "schema": _schema,
                    "eval": _eval,
                }
                code = handler[args.command](args)
                sys.stdout.flush()  # a reader that went away is found here, not in the interpreter's exit flush
            return code
        except BrokenPipeError:
            return _closed_pipe(argv is None)
        except KeyboardInterrupt:
            return _interrupted(argv is None)
        except E1PrepError as exc:
            print(f"e1prep: error: {terminal_safe(exc)}", file=sys.stderr)
            return 2


#: Ctrl-Cs this soon after the first are the same interrupt: ``timeout -s INT`` delivers two, about
#: 50 ms apart, and an impatient second press should not cost the brief of what finished
INTERRUPT_GRACE = 1.0


@contextlib.contextmanager
def _one_interrupt() -> Iterator[None]:
    """SIGINT raises ``KeyboardInterrupt`` as usual, except within ``INTERRUPT_GRACE`` seconds of the
    previous one: while the brief of what finished is being written, a repeat is ignored.

    Only in the main thread, and only where SIGINT is handled by Python's default (not ignored, as
    under ``nohup``, nor taken by an embedding program).
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    last: list[float] = []

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        if last and now - last[-1] < INTERRUPT_GRACE:
            return
        last.append(now)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


#: the exit status after the reader of stdout went away (``e1prep schema | head -1``): 128 + SIGPIPE,
#: what a shell reports for any tool a closed pipe stopped
CLOSED_PIPE = 141


def _closed_pipe(as_program: bool) -> int:
    """The reader of stdout closed the pipe: nothing more to say to anyone, exit 141 without a traceback.

    As a program, stdout and stderr are pointed at /dev/null (the Python documentation's recipe for
    SIGPIPE), so that the interpreter's final flush of what is still buffered cannot complain either.
    """
    _Progress.live = False
    if as_program:
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.dup2(devnull, sys.stderr.fileno())
    return CLOSED_PIPE


class _Terminated:
    """Whether the interruption being handled came from SIGTERM (exit 143) rather than Ctrl-C (exit 130)."""

    by_sigterm = False


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM unwinds the run like Ctrl-C: ``finally`` blocks run, so no temporary file is left beside an
    output and queued model calls are cancelled (the default action would end the process where it stands)."""
    _Terminated.by_sigterm = True
    raise KeyboardInterrupt


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Handle SIGTERM with ``_on_sigterm`` while a command runs (main thread only), then restore the handler."""
    _Terminated.by_sigterm = False
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupted(as_program: bool) -> int:
    """Ctrl-C (exit 130) or SIGTERM (exit 143): one line. As a program, model calls in flight are not waited for."""
    code, what = (143, "terminated") if _Terminated.by_sigterm else (130, "interrupted")
    with contextlib.suppress(OSError, ValueError):
        _Progress.clear()
        print(f"e1prep: {what}", file=sys.stderr)
    if as_program:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)
    return code


class _Progress(logging.Handler):
    """Progress on stderr: one line rewritten in place on a terminal, else a plain line per message."""

    live = False

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.tty = sys.stderr.isatty()

    def emit(self, record: logging.LogRecord) -> None:
        msg = terminal_safe(record.getMessage())  # a material's path is KB text: no ESC, no second line
        if self.tty:
            width = shutil.get_terminal_size((100, 20)).columns - 1
            sys.stderr.write("\r\x1b[K" + f"e1prep: {msg}"[:width])
            _Progress.live = True
        else:
            sys.stderr.write(f"e1prep: {msg}\n")
        sys.stderr.flush()

    @classmethod
    def clear(cls) -> None:
        if cls.live:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            cls.live = False


def _show_progress() -> logging.Handler:
    logger = logging.getLogger("e1prep.progress")
    for h in list(logger.handlers):
        if isinstance(h, _Progress):
            logger.removeHandler(h)
    handler = _Progress()
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return handler


def _llm_producer(args: argparse.Namespace, settings: LLMSettings | None = None) -> Producer:
    from .llm import require_stack

    require_stack()  # one line naming the llm extra, not a ModuleNotFoundError
    from .llm.backend import LLMProducer

    return LLMProducer(
        settings,
        concurrency=args.concurrency,
        use_cache=False if args.no_cache else None,
        cache_dir=Path(args.cache_dir) if args.cache_dir else None,
        lang=args.lang,
    )


def _draft(args: argparse.Namespace) -> int:
    from .brief.models import MaterialStatus
    from .brief.render import render_markdown
    from .pipeline import draft_brief, draft_from_extractions

    started = time.perf_counter()
    to_stdout, targets = _output_targets(args)
    kb_root = args.kb if args.kb is not None else Path(args.manifest).resolve().parent
    inputs = _draft_inputs(args)
    check_targets(targets, kb_root=kb_root, inputs=inputs)
    reading = (
        f"the extractions of {terminal_safe(args.extractions)}" if args.extractions else f"the {args.backend} backend"
    )
    print(f"e1prep: drafting {terminal_safe(args.manifest)} with {reading} ...", file=sys.stderr)
    progress = _show_progress()
    interrupted = False
    try:
        if args.extractions:
            if args.backend != "rules" or args.cassette:
                raise InputError(None, "--extractions is a reading of its own: not with --backend llm or --cassette")
            brief = draft_from_extractions(args.manifest, args.extractions, args.kb, args.item, lang=args.lang)
        elif args.backend == "rules":
            if args.cassette:
                raise InputError(None, "--cassette goes with --backend llm")
            brief = draft_brief(args.manifest, args.kb, args.item, lang=args.lang)
        elif args.cassette:
            brief = _draft_replayed(args)
        else:
            brief = draft_brief(args.manifest, args.kb, args.item, producer=_llm_producer(args), lang=args.lang)
    except Interrupted as exc:
        if exc.brief is None:
            raise KeyboardInterrupt from None
        brief, interrupted = exc.brief, True  # write what finished, then report the interruption
    finally:
        _Progress.clear()
        logging.getLogger("e1prep.progress").removeHandler(progress)
    data = json.loads(brief.model_dump_json())  # the models guarantee the schema (tests/test_cli.py checks it)
    markdown = render_markdown(brief, lang=args.lang)
    # everything is ready: only now is anything written (stdout first, then the files, atomically)
    read = [Path(kb_root, s.path) for s in brief.sources if s.status is MaterialStatus.read]
    check_targets(targets, kb_root=kb_root, inputs=[*inputs, *read])
    texts = {"--out": markdown, "--json": json.dumps(data, ensure_ascii=False, indent=2) + "\n"}
    if args.html is not None:
        texts["--html"], _ = _review_page(brief, args.manifest, args.kb, args.item, args.lang, quiet=True)
    reader_left = to_stdout is not None and not _write_stdout(texts[to_stdout])
    write_all([(t, texts[t.option]) for t in targets])
    _summary(brief, time.perf_counter() - started)
    if interrupted:
        raise KeyboardInterrupt
    if reader_left:  # the files are written; the closed pipe is reported as for every subcommand
        raise BrokenPipeError
    unread = [s for s in brief.sources if s.role == "material" and s.status is not MaterialStatus.read]
    if unread:
        for s in unread:
            print(f"e1prep: {terminal_safe(s.path)}: {s.status.value}: {terminal_safe(s.reason)}", file=sys.stderr)
        return 1
    if args.strict and (brief.rejected or brief.repairs):
        print(
            f"e1prep: --strict: the verifier rejected {len(brief.rejected)} object(s) and repaired "
            f"{len(brief.repairs)} claim(s)",
            file=sys.stderr,
        )
        return 1
    return 0


def _draft_inputs(args: argparse.Namespace) -> list[str | Path]:
    """The files a draft reads besides the KB: the manifest, the extractions, a cassette and the
    ``MANIFEST.json`` beside it. No output may be one of them."""
    inputs: list[str | Path] = [args.manifest]
    if args.extractions:
        inputs.append(args.extractions)
    if args.cassette:
        from .llm.cassettes import MANIFEST_NAME  # plain data and PyYAML: no model stack needed

        inputs += [args.cassette, Path(args.cassette).parent / MANIFEST_NAME]
    return inputs


def _draft_replayed(args: argparse.Namespace) -> Brief:
    """``--cassette FILE``: the model backend answered from a recorded cassette, offline."""
    from .llm import require_stack

    require_stack()
    from .llm import cassettes
    from .pipeline import draft_brief

    path = Path(args.cassette)
    if not path.is_file():
        raise InputError(path, "no such cassette")
    try:
        entry = cassettes.entry_for_file(path)
    except (LookupError, OSError, ValueError) as exc:
        raise InputError(path, f"cannot replay: {exc}") from None
    with cassettes.replay(path):
        settings = cassettes.replay_settings(entry)
        return draft_brief(args.manifest, args.kb, args.item, producer=_llm_producer(args, settings), lang=args.lang)


#: the names that mean standard output to --out and --json
STDOUT_NAMES = frozenset({"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


def _output_targets(args: argparse.Namespace) -> tuple[str | None, list[Target]]:
    """Which document goes to stdout ("--out", "--json", "--html" or None), and the files to write.

    ``-`` is stdout for every output option, never for two at once. The Markdown goes to stdout by
    default; ``--json -`` (or ``--html -``) takes stdout instead (the Markdown is then written only
    when ``--out`` names a file), so that ``draft M --json - | jq`` reads one JSON document.
    """
    given = {"--out": args.out, "--json": args.json_out, "--html": getattr(args, "html", None)}
    on_stdout = [option for option, path in given.items() if path in STDOUT_NAMES]
    if len(on_stdout) > 1:
        named = " and ".join(on_stdout)
        raise InputError(
            None, f"{named} both name standard output; give one of them a file path (one stream, one document)"
        )
    if not on_stdout and args.out is None:
        on_stdout = ["--out"]
    targets = [Target(path, option) for option, path in given.items() if path is not None and option not in on_stdout]
    targets.sort(key=lambda t: ("--json", "--out", "--html").index(t.option))  # the order they were written in
    return (on_stdout[0] if on_stdout else None), targets


def _write_stdout(text: str) -> bool:
    """Write ``text`` to stdout; False when its reader already went away (a closed pipe: not an error)."""
    stream = sys.stdout
    try:
        if stream is None:
            raise OSError("standard output is closed")
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        return False
    except (OSError, ValueError) as exc:
        raise InputError("<stdout>", f"cannot be written ({exc}); no file was written") from None
    return True


def _summary(brief: Brief, seconds: float) -> None:
    u = brief.run.usage
    print(
        f"e1prep: {len(brief.increments)} increments, {len(brief.refreshes)} refreshes, "
        f"{len(brief.contradictions)} contradictions, {len(brief.anchors)} anchors, "
        f"{len(brief.rejected)} rejected; backend {brief.run.backend}"
        + (
            f", model {brief.run.model}, {u.calls} calls ({u.retries} retries), "
            f"{u.prompt_tokens}+{u.completion_tokens} tokens, {u.cache_hits} cache hits"
            if brief.run.backend != "rules"
            else ""
        )
        + f"; {seconds:.2f}s",
        file=sys.stderr,
    )


def _verify(args: argparse.Namespace) -> int:
    from .pipeline import verify_brief

    report = verify_brief(args.brief, args.manifest, args.kb, args.item)
    print(terminal_safe(report.render(), keep_newlines=True))
    return 0 if report.clean else 1


def _review_page(
    brief: Brief, manifest: str, kb: str | None, item: str | None, lang: str, *, quiet: bool = False
) -> tuple[str, list[tuple[str, str, str]]]:
    """The review page of ``brief`` over the manifest's files, read by the loader a draft reads them with,
    and the materials that could not be read (path, status, reason).

    ``quiet``: the draft has just read them and said what it had to say about them; not twice.
    """
    from .brief.models import MaterialStatus
    from .brief.review import render_review
    from .kb.loading import load_kb

    loader = logging.getLogger("e1prep.kb")
    level = loader.level
    if quiet:
        loader.setLevel(logging.ERROR)
    try:
        loaded = load_kb(manifest, kb, item)
    finally:
        loader.setLevel(level)
    files = [*loaded.materials, *loaded.spot_checks, loaded.knowledge_material]
    unread = [(m.path, m.status.value, m.reason) for m in loaded.materials if m.status is not MaterialStatus.read]
    return render_review(brief, files, lang=lang), unread


def _review(args: argparse.Namespace) -> int:
    """``review BRIEF.json --manifest M [--html OUT]``: the review page of a saved brief. Exit 1 when a
    material could not be read (the page is written and says which), as for ``draft``."""
    from .brief.models import MaterialStatus
    from .brief.schema import load_brief

    to_stdout = args.html is None or args.html in STDOUT_NAMES
    targets = [] if to_stdout else [Target(args.html, "--html")]
    kb_root = args.kb if args.kb is not None else Path(args.manifest).resolve().parent
    check_targets(targets, kb_root=kb_root, inputs=[args.brief, args.manifest])
    try:
        brief = load_brief(args.brief)
    except OSError as exc:  # a folder, a file without read permission
        raise InputError(args.brief, f"cannot be read ({exc.strerror or exc})") from None
    page, unread = _review_page(brief, args.manifest, args.kb, args.item, args.lang)
    read = [Path(kb_root, s.path) for s in brief.sources if s.status is MaterialStatus.read]
    check_targets(targets, kb_root=kb_root, inputs=[args.brief, args.manifest, *read])
    if to_stdout:
        if not _write_stdout(page):
            raise BrokenPipeError
    else:
        write_all([(targets[0], page)])
    for path, status, reason in unread:
        print(f"e1prep: {terminal_safe(path)}: {status}: {terminal_safe(reason)}", file=sys.stderr)
    return 1 if unread else 0


def _lint(args: argparse.Namespace) -> int:
    from .verify.lint import lint_file

    findings = lint_file(args.brief)
    for f in findings:
        print(terminal_safe(f"{args.brief}:{f.line}: {f.token!r} has no evidence marker and no source: {f.context}"))
    print(f"{len(findings)} finding(s)")
    return 1 if findings else 0


def _schema(args: argparse.Namespace) -> int:
    from .brief.schema import drift, dumps, generate, schema_dir, write_all

    if args.check:
        stale = drift(Path(args.out) if args.out else None)
        folder = args.out or schema_dir()
        for name in stale:
            print(
                f"{folder}/{name} drifted from the models: run `python -m e1prep schema --out src/e1prep/schemas`",
                file=sys.stderr,
            )
        return 1 if stale else 0
    if args.out:
        for path in write_all(Path(args.out)):
            print(f"wrote {path}")
        return 0
    sys.stdout.write(dumps(generate("brief.schema.json")))
    return 0


def _eval(args: argparse.Namespace) -> int:
    from .evals.runner import run_cli

    return run_cli(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
