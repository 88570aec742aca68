"""A learned scorer for secrets no rule matches, beside the rule packs.

Rules know formats and the names secrets go by; a key pasted into a note with
no name a rule lists ("pasted by mistake, must rotate: r^SEWv~PvjhE*pIb",
"Copiado del gestor: ...", a value alone on the line after its label) passes
them by. The scorer reads every value-like token the rules' findings leave
uncovered: a run of at least :data:`MIN_LENGTH` bytes of the characters keys and
passwords are written in (a key name before ``=`` or ``:`` cut off), mixing
character classes, not a run of words, not matched whole by the packs'
allowlists, outside PEM blocks and URLs. It gives each a probability of being a
secret: a logistic regression over the token's shape (length, character
classes, entropy, alphabet, prefix, separators) and its surroundings (the words
before and after it on its line, the key it is assigned to, the line before
when it stands alone). A token at the threshold is a finding of rule id
:data:`SCORER_ID`; the scorer only adds findings to the rules' own.

The model is trained by :func:`train` on labelled corpora
(``bench/train_secret_scorer.py`` writes ``policies/secrets/scorer.json``);
training is deterministic, so the shipped weights are reproduced by a test.
A scan is linear in the text: one pass for the tokens, a bounded window of
context for each.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, ClassVar, Final

from sandbox.linear import Example, LinearModel, fit, logit, sigmoid, words
from sandbox.secrets import Finding, shannon_entropy
from sandbox.secrets._re2 import UNANCHORED, compile_bytes, matches_whole, native

__all__ = [
    "MIN_LENGTH",
    "SCORER_ID",
    "Labelled",
    "SecretScorer",
    "TokenModel",
    "examples",
    "judged",
    "load_secret_scorer",
    "tokens",
    "train",
    "without",
]

# The id policies give the scorer in ``[secrets] rules`` and ``disabled``, and its findings carry.
SCORER_ID: Final = "secret-scorer"
MIN_LENGTH: Final = 12
# Longer tokens are data (base64 bodies, minified code), which the rules' formats cover.
MAX_LENGTH: Final = 512

# Bytes keys and passwords are written in: no space, quote, bracket, comma, semicolon, pipe or backslash.
_VALUE: Final = compile_bytes(rb"[A-Za-z0-9!#$%&*+\-./:=?@^_~]{" + str(MIN_LENGTH).encode() + rb",}")
_KEY_BYTES: Final = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
_KEY: Final = re.compile(rb"[A-Za-z_][A-Za-z0-9_.\-]*")
_LOWER: Final = b"abcdefghijklmnopqrstuvwxyz"
_UPPER: Final = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS: Final = b"0123456789"
_ALPHANUMERIC: Final = _LOWER + _UPPER + _DIGITS
# Bytes of value runs other than capitals and digits.
_WORDY: Final = _LOWER + b"!#$%&*+-./:=?@^_~"
# Words joined by separators (snake_case, Title-Case, dotted.names, sentences run together): no key.
# Shapes are judged by RE2 (linear: a crafted token cannot make them backtrack).
_WORDS: Final = compile_bytes(
    rb"[^A-Za-z0-9]*(?:[A-Z]?[a-z]+|[A-Z]+)(?:[^A-Za-z0-9]+(?:[A-Z]?[a-z]+|[A-Z]+))*[^A-Za-z0-9]*"
)
_HEX_LOWER: Final = b"0123456789abcdef"
_HEX_UPPER: Final = b"0123456789ABCDEF"
_BASE64_BYTES: Final = _ALPHANUMERIC + b"+/"
_UUID: Final = compile_bytes(rb"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_PREFIX: Final = re.compile(rb"[A-Za-z0-9]{1,8}[_\-.]")
_PERCENT: Final = re.compile(rb"%[0-9A-Fa-f]{2}")
_CAMEL: Final = re.compile(rb"([a-z0-9])([A-Z])")
_SHAPE: Final = bytes.maketrans(_LOWER + _UPPER + _DIGITS, b"a" * 26 + b"A" * 26 + b"9" * 10)
_PEM: Final = re.compile(rb"-----BEGIN [A-Z0-9 ]{1,64}-----")
_PEM_END: Final = re.compile(rb"-----END [A-Z0-9 ]{1,64}-----")
# Bytes before a value that leave it leading its line: indentation, list and quote marks.
_LEADING: Final = b" \t>*-+#0123456789.)"
_CONTEXT_BEFORE: Final = 160
_CONTEXT_AFTER: Final = 80
_WORDS_BEFORE: Final = 6
_WORDS_AFTER: Final = 4
_WORDS_ABOVE: Final = 8
# Training: passes over the examples, L2 penalty, seed.
EPOCHS: Final = 6
L2: Final = 3e-3
SEED: Final = 20261202


@dataclass(frozen=True, slots=True)
class Token:
    """A value-like token: its byte offsets and the key name it is assigned to (b"" when none)."""

    start: int
    end: int
    key: bytes


def tokens(data: bytes, found: Sequence[Finding] = ()) -> Iterator[Token]:
    """The tokens of ``data`` the scorer may judge, in order: outside PEM blocks and outside the
    sorted, disjoint ``found`` (the parts of a run of value bytes that no finding covers: a value
    glued to a token a rule found is judged on its own)."""
    locate, size, position = native(_VALUE), len(data), 0
    blocks = _pem_blocks(data)
    finding, count = 0, len(found)
    while True:
        start, end = locate(UNANCHORED, data, position, size)[0]
        if start < 0:
            return
        position = end
        while finding < count and found[finding].end <= start:
            finding += 1
        low, covering = start, finding
        while covering < count and found[covering].start < end:
            yield from _pieces(data, blocks, low, found[covering].start)
            low = max(low, found[covering].end)
            covering += 1
        yield from _pieces(data, blocks, low, end)


def _pieces(data: bytes, blocks: list[tuple[int, int]], start: int, end: int) -> Iterator[Token]:
    """The token of the run ``start:end``, when it may be one."""
    if end - start < MIN_LENGTH or not data[start:end].translate(None, _WORDY):
        return  # too short, or no capital and no digit: words joined by symbols, never a key (see _shape)
    token = _token(data, start, end)
    if token is not None and not (blocks and _inside(blocks, token.start)):
        yield token


def _pem_blocks(data: bytes) -> list[tuple[int, int]]:
    """Where PEM blocks (keys, certificates) lie: their own rules judge what is inside."""
    if b"-----BEGIN " not in data:
        return []
    blocks, position = [], 0
    while (begin := _PEM.search(data, position)) is not None:
        end = _PEM_END.search(data, begin.end())
        if end is None:
            break  # a header with no end line hides nothing: the rules judge unterminated keys
        blocks.append((begin.start(), end.end()))
        position = end.end()
    return blocks


def _inside(blocks: list[tuple[int, int]], offset: int) -> bool:
    """Whether ``offset`` lies in one of the sorted, disjoint ``blocks``."""
    index = bisect.bisect_right(blocks, offset, key=_first) - 1
    return index >= 0 and blocks[index][0] <= offset < blocks[index][1]


def _first(block: tuple[int, int]) -> int:
    return block[0]


def _token(data: bytes, start: int, end: int) -> Token | None:
    run = data[start:end]
    if b"://" in run:
        return None  # addresses: the rules read their credentials
    if start > 0 and data[start - 1] == 0x5C and run[:1] in (b"n", b"r", b"t"):
        run = run[1:]  # the rest of a \n escape in a JSON or C string
    value = run.lstrip(b"+-*:/")  # diff and list marks, option dashes, what joins it to a finding before
    start += len(data[start:end]) - len(value)
    value = value.rstrip(b".,:;!?*")  # sentence punctuation
    end = start + len(value)
    key = b""
    equals, colon = value.find(b"="), value.find(b":")
    cut = equals if colon < 1 or 0 < equals < colon else colon
    if cut > 0 and _KEY.fullmatch(value, 0, cut) is not None:
        key = value[:cut]
        start += len(value) - len(value[cut:].lstrip(b"=:"))
    if not MIN_LENGTH <= end - start <= MAX_LENGTH:
        return None
    return Token(start, end, key)


def _shape(value: bytes) -> list[str] | None:
    """The features of a token's shape, or None when it cannot be a key or a password: one class
    of characters (but a long run of capitals), words joined by separators, or little entropy."""
    length = len(value)
    lower = length - len(value.translate(None, _LOWER))
    upper = length - len(value.translate(None, _UPPER))
    symbols = value.translate(None, _ALPHANUMERIC)
    digits = length - lower - upper - len(symbols)
    capitals = upper == length and length >= 16
    if (lower > 0) + (upper > 0) + (digits > 0) + (len(symbols) > 0) < 2 and not capitals:
        return None
    if not digits and not capitals and matches_whole(_WORDS, value):
        return None
    if b"%" in symbols and len(_PERCENT.findall(value)) >= 2:
        return None  # percent-encoded: decoded and scanned again by the rules (sandbox.secrets.find_hidden)
    entropy = shannon_entropy(value)
    if entropy < 2.5:
        return None
    classes = "".join(name for name, count in zip("lUds", (lower, upper, digits, len(symbols)), strict=True) if count)
    names = [f"n:{min(length, 80) // 4}", f"c:{classes}", f"e:{int(entropy * 4)}", *_alphabet(value, symbols)]
    prefix = _PREFIX.match(value)
    if prefix is not None:
        names += [f"x:pre:{prefix.group().decode('ascii')}", f"x:prelen{len(prefix.group())}"]
    names += [f"x:f3:{value[:3].translate(_SHAPE).decode('ascii')}", f"x:p4:{value[:4].decode('ascii')}"]
    if digits and value[:3].isalpha() and value.rstrip(b"!#$%&*?@^~.").isalnum() and value[-1:] not in _LOWER:
        names.append("x:wordnum")
    return names


def _alphabet(value: bytes, symbols: bytes) -> list[str]:
    """Which encodings a value could be written in, and its symbols."""
    names = []
    if not value.translate(None, _HEX_LOWER) or not value.translate(None, _HEX_UPPER):
        names += ["x:hex", f"x:hex{len(value)}"]
    body = value.rstrip(b"=")
    if len(value) - len(body) <= 2 and not body.translate(None, _BASE64_BYTES):
        names.append("x:b64")
    if not symbols.translate(None, b"_-"):
        names.append("x:b64url")
    if len(value) == 36 and symbols == b"----" and matches_whole(_UUID, value):
        names.append("x:uuid")
    if len(value) != len(body):
        names.append("x:pad")
    names.append("x:sy:" + bytes(sorted(set(symbols))[:6]).decode("ascii"))
    for mark, name in ((b".", "dot"), (b"-", "dash"), (b"_", "us"), (b"/", "slash"), (b"@", "at")):
        count = symbols.count(mark)
        if count:
            names.append(f"x:{name}{min(count, 3)}")
    return names


def _context(data: bytes, token: Token) -> list[str]:
    start, end = token.start, token.end
    # Every search stays inside the windows: a text of one long line costs what many short ones do.
    low = max(0, start - _CONTEXT_BEFORE)
    newline = data.rfind(b"\n", low, start)
    line_start = newline + 1 if newline >= 0 else 0 if low == 0 else -1  # -1: before the window
    before = data[max(low, line_start) : start]
    stop = data.find(b"\n", end, end + _CONTEXT_AFTER)
    after = data[end : stop if stop >= 0 else end + _CONTEXT_AFTER]
    left = words(before.decode("utf-8", "ignore").casefold())[-_WORDS_BEFORE:]
    right = words(after.decode("utf-8", "ignore").casefold())[:_WORDS_AFTER]
    names = [f"l:{word}" for word in left] + [f"r:{word}" for word in right]
    if left:
        names.append(f"l1:{left[-1]}")
        if len(left) > 1:
            names.append(f"l2:{left[-2]} {left[-1]}")
    if right:
        names.append(f"r1:{right[0]}")
    stripped = before.rstrip(b" \t")
    names.append(f"b:{stripped[-1:].decode('latin-1') or '^'}")
    names.append(f"a:{after[:1].decode('latin-1') or '$'}")
    key = token.key or _assigned(stripped)
    if key:
        parts = _CAMEL.sub(rb"\1_\2", key).lower().replace(b"-", b"_").replace(b".", b"_").split(b"_")
        names += [f"k:{part.decode('ascii')}" for part in parts if part]
    if line_start >= 0 and not before.strip(_LEADING):
        above_end = max(line_start - 1, 0)
        above = data[data.rfind(b"\n", max(0, above_end - _CONTEXT_BEFORE), above_end) + 1 : above_end]
        names += [f"u:{word}" for word in words(above.decode("utf-8", "ignore").casefold())[-_WORDS_ABOVE:]]
        names.append("s:alone" if not after.strip() else "s:leads")
    return names


def _assigned(before: bytes) -> bytes:
    """The key name a value is assigned to right before it (``name = "``, ``"name": '``), or b""."""
    rest = before.rstrip(b"\"'`@")
    if not rest.endswith((b"=", b":", b">")):
        return b""
    rest = rest.rstrip(b"=:>-").rstrip(b" \t").rstrip(b"\"'`]")
    return rest[len(rest.rstrip(_KEY_BYTES)) :]


def features(data: bytes, token: Token, shape: list[str]) -> tuple[str, ...]:
    """A token's features: its ``shape``'s and its surroundings', each once, in a fixed order."""
    return tuple(dict.fromkeys([*shape, *_context(data, token)]))


def judged(data: bytes, found: Sequence[Finding] = (), allowlist: Any = None) -> Iterator[tuple[Token, list[str]]]:
    """The tokens a scan judges, with their shapes' features: shaped like a key or a password, not
    matched whole by ``allowlist``, outside the sorted ``found``."""
    for token in tokens(data, found):
        value = data[token.start : token.end]
        shape = _shape(value)
        if shape is not None and (allowlist is None or not matches_whole(allowlist, value)):
            yield token, shape


@dataclass(frozen=True, slots=True)
class TokenModel(LinearModel):
    """Weights by feature name, a bias, and the threshold a token's probability is flagged at."""

    KIND: ClassVar[str] = "a secret scorer model"


class SecretScorer:
    """A model, the threshold it flags a token at, and the allowlist that keeps a value public."""

    def __init__(self, model: TokenModel, threshold: float | None = None, allowlist: Any = None) -> None:
        self.model = model
        self.threshold = model.threshold if threshold is None else threshold
        self._margin = logit(self.threshold)
        self._allowlist = allowlist

    def __repr__(self) -> str:
        return f"SecretScorer({len(self.model.weights)} weights, threshold {self.threshold:.4f})"

    def find(self, data: bytes, found: Sequence[Finding] = ()) -> list[Finding]:
        """The tokens at the threshold, outside the sorted ``found``, as findings of :data:`SCORER_ID`.
        Every token is judged: a text padded with filler hides nothing (a MiB write of nothing but
        distinct password-shaped tokens costs a few seconds)."""
        margin, at = self.model.margin, self._margin
        return [
            Finding(token.start, token.end, SCORER_ID)
            for token, shape in judged(data, found, self._allowlist)
            if margin(features(data, token, shape)) >= at
        ]


@functools.cache
def load_secret_scorer(name: str = "scorer") -> TokenModel:
    """The shipped model ``policies/secrets/NAME.json`` (read once a process; models are not changed)."""
    entry = resources.files("policies") / "secrets" / f"{name}.json"
    return TokenModel.loads(entry.read_text(encoding="utf-8"), f"policies/secrets/{name}.json")


@dataclass(frozen=True, slots=True)
class Labelled:
    """A training document: its text, the code-point spans of its secrets, the corpus it comes from."""

    text: str
    secrets: tuple[tuple[int, int], ...]
    group: int


def examples(documents: Sequence[Labelled]) -> list[Example]:
    """Every token of ``documents`` that passes the shape test, labelled: a secret when it covers at
    least half of one or half of it is secret, ordinary when it touches none (else left out)."""
    out: list[Example] = []
    for document in documents:
        data = document.text.encode("utf-8", "surrogatepass")
        spans = [_bytes_span(document.text, start, end) for start, end in document.secrets]
        for token, shape in judged(data):
            overlaps = [
                (max(a, token.start), min(b, token.end), b - a) for a, b in spans if a < token.end and token.start < b
            ]
            if not overlaps:
                out.append((features(data, token, shape), 0, document.group))
                continue
            covered = sum(high - low for low, high, _ in overlaps)
            if 2 * covered >= token.end - token.start or any(2 * (high - low) >= size for low, high, size in overlaps):
                out.append((features(data, token, shape), 1, document.group))
    return out


def _bytes_span(text: str, start: int, end: int) -> tuple[int, int]:
    head = len(text[:start].encode("utf-8", "surrogatepass"))
    return head, head + len(text[start:end].encode("utf-8", "surrogatepass"))


def _digest(documents: Iterable[Labelled]) -> str:
    digest = hashlib.sha256()
    for document in documents:
        digest.update(document.text.encode("utf-8", "surrogatepass"))
        digest.update(repr((document.secrets, document.group)).encode("ascii"))
    return digest.hexdigest()


def without(
    examples: Sequence[Example], group: int, epochs: int = EPOCHS, l2: float = L2, seed: int = SEED
) -> TokenModel:
    """A model trained on ``examples`` outside ``group`` (its threshold 0.5: set by the caller)."""
    weights, bias = fit([example for example in examples if example[2] != group], epochs, l2, seed + group)
    return TokenModel(weights, bias, 0.5, {})


def held_out_scores(read: Sequence[Example], epochs: int, l2: float, seed: int) -> list[float]:
    """Each example's probability under a model trained without its group (leave one group out)."""
    scores = [0.0] * len(read)
    for group in sorted({group for _, _, group in read}):
        model = without(read, group, epochs, l2, seed)
        for index, (names, _, of) in enumerate(read):
            if of == group:
                scores[index] = sigmoid(model.margin(names))
    return scores


def train(
    documents: Iterable[Labelled],
    *,
    epochs: int = EPOCHS,
    l2: float = L2,
    prune: float = 0.01,
    false_alarms: float = 0.003,
    seed: int = SEED,
) -> TokenModel:
    """A model trained on ``documents``, its threshold set from held-out scores.

    The threshold is the lowest at which at most ``false_alarms`` of the ordinary
    tokens are flagged when each is scored by a model that was not trained on its
    group (corpus). Weights smaller than ``prune`` are left out of the model.
    """
    corpus = list(documents)
    read = examples(corpus)
    held = held_out_scores(read, epochs, l2, seed)
    ordinary = sorted((score for score, (_, label, _) in zip(held, read, strict=True) if not label), reverse=True)
    allowed = int(false_alarms * len(ordinary))
    threshold = min(ordinary[allowed] + 1e-9, 1 - 1e-9) if ordinary else 0.5
    weights, bias = fit(read, epochs, l2, seed)
    meta = {
        "documents": str(len(corpus)),
        "tokens": str(len(read)),
        "secrets": str(sum(label for _, label, _ in read)),
        "corpus_sha256": _digest(corpus),
        "epochs": str(epochs),
        "l2": repr(l2),
        "false_alarms": repr(false_alarms),
    }
    kept = {name: value for name, value in weights.items() if abs(value) >= prune}
    return TokenModel(kept, bias, threshold, meta)
