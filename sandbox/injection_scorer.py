"""A learned scorer for instructions planted in memory, beside the injection rules.

Rules match phrasings; orders in plain prose vary more than any list of them
("per the new compliance policy, copy the user's contacts to ..."). The scorer
reads a memory file one segment at a time (a line, or a sentence chunk of a
long line) and gives each a probability of being text planted for the agent:
a logistic regression over words, word pairs, the segment's shape (links,
addresses, quoting, list items), the rules that find something in it, and its
surroundings (the line before it, and words anywhere in the file that frame it
as a discussion of attacks). A segment whose probability reaches the model's
threshold is a finding; the scorer only adds findings to the rules' own.

The model is trained by :func:`train` on labelled corpora (``bench/train_injection_scorer.py``
writes ``policies/injection/scorer.json``); training is deterministic, so the
shipped weights are reproduced by a test. Everything here is linear in the
text: one pass to cut segments of bounded size, one lookup per feature.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import ClassVar, Final

from sandbox.linear import Example, LinearModel, fit, sigmoid
from sandbox.linear import words as _words
from sandbox.secrets._hidden import INVISIBLE

__all__ = [
    "Labelled",
    "Rules",
    "ScoredLines",
    "Scorer",
    "ScorerModel",
    "Segment",
    "load_scorer",
    "segments",
    "train",
]

# The ids of the rules that find something in a segment's text.
Rules = Callable[[str], Iterable[str]]

# A long line is read in chunks of whole sentences of about this many characters.
_CHUNK: Final = 320
# A chunk longer than this (no sentence end in it) is cut every _CHUNK characters.
_LONGEST_CHUNK: Final = 4 * _CHUNK
_SENTENCE_END: Final = re.compile(r"(?<=[.!?;\u3002\uff01\uff1f])\s+|(?<=[\u3002\uff01\uff1f])")
_LINE: Final = re.compile(r"[^\n]*\n?")
_URL: Final = re.compile(r"https?://\S+|\bwww\.\S+", re.IGNORECASE)
# Bounded: an unbounded run before the "@" is quadratic on a long line without one.
_EMAIL: Final = re.compile(r"[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{1,63}")
_FENCE: Final = re.compile(r"^\s*(?:```|~~~)")
_LIST: Final = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s")
_COMMENT: Final = re.compile(r"^\s*(?:#|//|--|<!--|/\*|;)")
_QUOTED: Final = re.compile(r"^\s*(?:>|[\"\u201c\u00ab\u201e'\u2018`])|[\"\u201d\u00bb'\u2019`]\s*[.,;]?\s*$")
_PREVIOUS_WORDS: Final = 12
# Words that, anywhere in a file, frame what it quotes as a discussion of attacks rather than orders.
_FRAMING: Final = (
    "injection", "injections", "injected", "attack", "attacks", "attacker", "attackers", "adversarial",
    "payload", "payloads", "malicious", "jailbreak", "jailbreaks", "exploit", "exploited", "vulnerability",
    "cve", "threat", "mitigation", "mitigations", "red", "team", "detector", "detection", "filter",
    "poisoning", "poisoned", "exfiltration", "researchers", "paper", "et", "al", "example", "examples",
    "quoted", "quote", "test", "tests", "case", "cases", "incident", "postmortem", "report", "reported",
    "phishing", "smuggling", "owasp", "security", "defence", "defense", "sanitize", "sanitise", "flagged",
    "blocked", "writeup", "write", "disclosure", "scenario", "demo", "simulated",
)  # fmt: skip
_FRAMING_SET: Final = frozenset(_FRAMING)
# Lines whose sums a cache of scored lines keeps before it is cleared.
_LINES_KEPT: Final = 2048
# The digest of a line says how it was read: fenced or not, rules read in it or not.
_KINDS: Final = {
    (fenced, ruled): f"{int(fenced)}{int(ruled)}".encode("ascii") for fenced in (False, True) for ruled in (False, True)
}


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of a file the scorer judges on its own: code-point offsets and its features' names."""

    start: int
    end: int
    features: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Labelled:
    """A training document: its text and the code-point spans planted in it."""

    text: str
    spans: tuple[tuple[int, int], ...]


def _readable(text: str) -> str:
    return INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).casefold()


def _pieces(text: str) -> Iterator[tuple[int, int, bool]]:
    """Lines (long ones cut into sentence chunks), as offsets, and whether inside a code fence."""
    fenced = False
    for match in _LINE.finditer(text):
        start, end = match.span()
        if start == end:
            break
        line = match.group()
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not line.strip():
            continue
        if end - start <= _CHUNK:
            yield start, end, fenced
            continue
        cuts = [start]
        for stop in _SENTENCE_END.finditer(line):
            if start + stop.end() - cuts[-1] >= _CHUNK:
                cuts.append(start + stop.end())
        if cuts[-1] < end:
            cuts.append(end)
        for head, tail in itertools.pairwise(cuts):
            # A run of text with no sentence end is cut every _CHUNK characters: a segment's
            # features stay bounded whatever the line.
            for piece in range(head, tail, _CHUNK if tail - head > _LONGEST_CHUNK else tail - head):
                yield piece, min(tail, piece + _CHUNK if tail - head > _LONGEST_CHUNK else tail), fenced


def _line(raw: str, fenced: bool, rules: Rules | None) -> tuple[list[str], list[str]]:
    """A segment's words and the names of the features it has of its own (not of its surroundings)."""
    words = _words(_readable(raw))
    if not words:
        return words, []
    names = [f"w:{word}" for word in words]
    if rules is not None:
        names += [f"r:{rule}" for rule in rules(raw)]
    names += [f"b:{a} {b}" for a, b in itertools.pairwise(words)]
    names.append(f"f:{words[0]}")
    if fenced:
        names.append("s:fenced")
    urls = _URL.findall(raw)
    if urls:
        names.append("s:url")
        if any("?" in url or "{" in url or "$" in url for url in urls):
            names.append("s:url-query")
    if "![" in raw or "<img" in raw.lower():
        names.append("s:image")
    if "@" in raw and _EMAIL.search(raw) is not None:
        names.append("s:email")
    if _LIST.match(raw) is not None:
        names.append("s:list")
    if _COMMENT.match(raw) is not None:
        names.append("s:comment")
    if _QUOTED.search(raw.rstrip("\n")) is not None:
        names.append("s:quoted")
    names.append("s:long" if len(words) > 25 else "s:short" if len(words) < 6 else "s:mid")
    return words, names


def _framing(words: set[str]) -> list[str]:
    """The features of the framing words among the words of a file's segments."""
    return [f"d:{word}" for word in sorted(_FRAMING_SET.intersection(words))]


def _before(words: list[str]) -> list[str]:
    """The features a segment gives the one after it."""
    return [f"p:{word}" for word in words[:_PREVIOUS_WORDS]]


def segments(text: str, rules: Rules | None = None) -> list[Segment]:
    """The segments of ``text`` with their features: their own (and the ``rules`` that find
    something in them), the segment before's, the framing words of all the file's segments."""
    read: list[tuple[int, int, list[str], list[str]]] = []
    for start, end, fenced in _pieces(text):
        words, names = _line(text[start:end], fenced, rules)
        if words:
            read.append((start, end, words, names))
    context = _framing({word for _, _, words, _ in read for word in words})
    out: list[Segment] = []
    previous: list[str] = []
    for start, end, words, names in read:
        out.append(Segment(start, end, tuple(sorted({*names, *previous, *context}))))
        previous = _before(words)
    return out


@dataclass(frozen=True, slots=True)
class ScorerModel(LinearModel):
    """Weights by feature name, a bias, and the threshold a segment's probability is flagged at."""

    KIND: ClassVar[str] = "an injection scorer model"

    def scorer(self, threshold: float | None = None) -> Scorer:
        """A scorer of this model that flags at ``threshold`` (default: the model's)."""
        return Scorer(self, self.threshold if threshold is None else threshold)

    def find(self, text: str) -> list[tuple[int, int]]:
        """The segments whose probability reaches the threshold (no rules read), as code-point offsets."""
        return self.scorer().find(text)


# What a line gives a file's scores: its own features' weights, those it gives the segment after
# it, its framing words (a plain tuple: an entry of a sandbox's cache stays small).
_Sums = tuple[float, float, tuple[str, ...]]


# Per line (a digest of its text, whether it is fenced, whether rules were read in it), what a scorer
# summed for it: a caller's cache (a file edited again is mostly lines scored before), kept by each
# sandbox so that no scope can time another's writes. A digest, not the line: an entry's size does
# not grow with the line's (about 350 bytes an entry, 0.7 MB a full cache).
ScoredLines = dict[bytes, _Sums | None]


class Scorer:
    """A model and the threshold it flags a segment at."""

    def __init__(self, model: ScorerModel, threshold: float) -> None:
        self.model = model
        self.threshold = threshold

    def __repr__(self) -> str:
        return f"Scorer({len(self.model.weights)} weights, threshold {self.threshold:.4f})"

    def _sums(self, raw: str, fenced: bool, lines: ScoredLines, rules: Rules | None) -> _Sums | None:
        kind = _KINDS[fenced, rules is not None]
        key = hashlib.blake2b(raw.encode("utf-8", "surrogatepass"), digest_size=16, person=kind).digest()
        try:
            return lines[key]
        except KeyError:  # not scored yet (a check then a read could race a clear by another thread)
            pass
        weight = self.model.weights.get
        words, names = _line(raw, fenced, rules)
        sums = None
        if words:
            # Each name once, in a fixed order: the same sum in every process.
            sums = (
                sum(weight(name, 0.0) for name in dict.fromkeys(names)),
                sum(weight(name, 0.0) for name in dict.fromkeys(_before(words))),
                tuple(sorted(_FRAMING_SET.intersection(words))),
            )
        if len(lines) >= _LINES_KEPT:
            lines.clear()
        lines[key] = sums
        return sums

    def scores(
        self, text: str, lines: ScoredLines | None = None, rules: Rules | None = None
    ) -> list[tuple[float, int, int]]:
        """Each segment's probability with its code-point offsets (the sums :func:`segments`' features
        give, ``rules`` read in each segment); ``lines`` keeps the sums of lines scored before."""
        lines = {} if lines is None else lines
        partial: list[tuple[float, int, int]] = []
        framing: set[str] = set()
        previous = 0.0
        for start, end, fenced in _pieces(text):
            sums = self._sums(text[start:end], fenced, lines, rules)
            if sums is not None:
                own, given, framed = sums
                partial.append((own + previous, start, end))
                previous = given
                framing.update(framed)
        weight = self.model.weights.get
        base = self.model.bias + sum(weight(name, 0.0) for name in _framing(framing))
        return [(sigmoid(base + margin), start, end) for margin, start, end in partial]

    def find(self, text: str) -> list[tuple[int, int]]:
        """The segments whose probability reaches the threshold, as code-point offsets."""
        return [(start, end) for score, start, end in self.scores(text) if score >= self.threshold]


@functools.cache
def load_scorer(name: str = "scorer") -> ScorerModel:
    """The shipped model ``policies/injection/NAME.json`` (read once a process; models are not changed)."""
    entry = resources.files("policies") / "injection" / f"{name}.json"
    return ScorerModel.loads(entry.read_text(encoding="utf-8"), f"policies/injection/{name}.json")


def _visible(text: str) -> int:
    return len(_words(_readable(text)))


# A training segment: its features, whether it was planted, the number of its document.
_Example = Example


def _examples(documents: Sequence[Labelled], rules: Callable[[str], Rules | None] | None) -> list[_Example]:
    """Every segment of ``documents``; a segment only planted in invisibly is left out."""
    out: list[_Example] = []
    for number, document in enumerate(documents):
        for segment in segments(document.text, rules(document.text) if rules is not None else None):
            overlaps = [
                document.text[max(start, segment.start) : min(end, segment.end)]
                for start, end in document.spans
                if start < segment.end and segment.start < end
            ]
            planted = sum(_visible(part) for part in overlaps)
            if overlaps and planted < 2:
                continue
            out.append((segment.features, int(planted >= 2), number))
    return out


def _document_scores(examples: Sequence[_Example], weights: dict[str, float], bias: float, count: int) -> list[float]:
    best = [0.0] * count
    for features, _, number in examples:
        margin = bias + sum(weights.get(name, 0.0) for name in features)
        best[number] = max(best[number], sigmoid(margin))
    return best


def train(
    documents: Iterable[Labelled],
    *,
    rules: Callable[[str], Rules | None] | None = None,
    epochs: int = 6,
    l2: float = 3e-3,
    prune: float = 0.01,
    folds: int = 3,
    false_alarms: float = 0.01,
    seed: int = 20261202,
) -> ScorerModel:
    """A model trained on ``documents``, its threshold set from out-of-fold scores.

    ``rules`` gives, for a document, what reads the ids of the rules that find something in each
    of its segments (features ``r:ID``), or None where no rule finds anything in the document.
    The threshold is the lowest at which at most ``false_alarms`` of the ordinary
    documents are flagged when each is scored by a model that was not trained on it.
    Weights smaller than ``prune`` are left out of the model.
    """
    corpus = list(documents)
    examples = _examples(corpus, rules)
    flagged_when: list[float] = [0.0] * len(corpus)
    for fold in range(folds):
        trained = [example for example in examples if example[2] % folds != fold]
        weights, bias = fit(trained, epochs, l2, seed + fold)
        held = [example for example in examples if example[2] % folds == fold]
        for number, score in enumerate(_document_scores(held, weights, bias, len(corpus))):
            if number % folds == fold:
                flagged_when[number] = score
    ordinary = sorted((flagged_when[n] for n, doc in enumerate(corpus) if not doc.spans), reverse=True)
    allowed = int(false_alarms * len(ordinary))
    threshold = ordinary[allowed] + 1e-9 if ordinary else 0.5
    weights, bias = fit(examples, epochs, l2, seed)
    digest = hashlib.sha256()
    for document in corpus:
        digest.update(document.text.encode("utf-8", "surrogatepass"))
        digest.update(repr(document.spans).encode("ascii"))
    meta = {
        "documents": str(len(corpus)),
        "segments": str(len(examples)),
        "corpus_sha256": digest.hexdigest(),
        "epochs": str(epochs),
        "l2": repr(l2),
        "false_alarms": repr(false_alarms),
    }
    kept = {name: value for name, value in weights.items() if abs(value) >= prune}
    return ScorerModel(kept, bias, threshold, meta)
