"""Logistic regression over named features: the learned scorers' shared model and training.

A model is a weight per feature name, a bias and the probability it flags at.
Training is AdaGrad over examples given as feature names, a label and a group
(the document or corpus an example comes from), deterministic for a seed: the
shipped models are reproduced by tests. Sums are taken in a fixed order, so a
score is the same in every process.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Self

from sandbox.errors import PolicyError

__all__ = ["Example", "LinearModel", "fit", "logit", "sigmoid", "words"]

_WORD: Final = re.compile(r"[^\W\d_]+|\d+")
# Scripts written without spaces between words: read as pairs of characters.
_UNSPACED: Final = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# Longer runs of letters in a spaced script are no words (random keys, digests, base64).
_LONGEST: Final = 20

# A training example: its features' names, whether it is positive (1) or not (0), its group.
Example = tuple[tuple[str, ...], int, int]


@dataclass(frozen=True, slots=True)
class LinearModel:
    """Weights by feature name, a bias, and the threshold a probability is flagged at."""

    weights: dict[str, float]
    bias: float
    threshold: float
    meta: dict[str, str]

    # What a model file of this class is called in errors.
    KIND: ClassVar[str] = "a scorer model"

    def margin(self, features: Iterable[str]) -> float:
        """The bias plus the weights of ``features`` (distinct names), summed in the order given."""
        weight = self.weights.get
        return self.bias + sum(weight(name, 0.0) for name in features)

    def dumps(self) -> str:
        """The model as JSON, its weights in four significant digits, sorted by name."""
        weights = {name: float(f"{value:.4g}") for name, value in sorted(self.weights.items())}
        return json.dumps(
            {"format": 1, "bias": self.bias, "threshold": self.threshold, "meta": self.meta, "weights": weights},
            indent=0,
            ensure_ascii=False,
        )

    @classmethod
    def loads(cls, text: str, source: str) -> Self:
        """A model from its JSON; :class:`PolicyError` naming ``source`` when the file is not one."""
        kind = cls.KIND
        try:
            data = json.loads(text)
            weights = {str(name): float(value) for name, value in data["weights"].items()}
            model = cls(weights, float(data["bias"]), float(data["threshold"]), {**data["meta"]})
            known = type(data["format"]) is int and data["format"] == 1
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise PolicyError(f"{source}: not {kind} ({error})") from None
        if not known:
            raise PolicyError(f"{source}: {kind} of an unknown format")
        numbers = (model.bias, model.threshold, *model.weights.values())
        if not all(math.isfinite(number) for number in numbers) or not 0.0 < model.threshold < 1.0:
            raise PolicyError(f"{source}: {kind} needs finite weights and a threshold in (0, 1)")
        if not all(isinstance(value, str) for value in model.meta.values()):
            raise PolicyError(f"{source}: {kind}'s meta holds strings only")
        return model


def sigmoid(value: float) -> float:
    if value >= 0:
        return 1.0 / (1.0 + math.exp(-value))
    odds = math.exp(value)
    return odds / (1.0 + odds)


def logit(probability: float) -> float:
    """The margin at which :func:`sigmoid` reaches ``probability`` (0 < probability < 1)."""
    return math.log(probability / (1.0 - probability))


def fit(examples: Sequence[Example], epochs: int, l2: float, seed: int) -> tuple[dict[str, float], float]:
    """Logistic regression by AdaGrad, positives weighted by the square root of the classes' ratio."""
    weights: dict[str, float] = {}
    squares: dict[str, float] = {}
    bias, bias_square = 0.0, 1e-8
    positives = sum(label for _, label, _ in examples)
    weight_of = {1: math.sqrt((len(examples) - positives) / max(1, positives)), 0: 1.0}
    order = list(range(len(examples)))
    shuffle = random.Random(seed)  # noqa: S311  # nosec B311 - the order training reads examples in, no secret
    rate = 0.2
    for _ in range(epochs):
        shuffle.shuffle(order)
        for index in order:
            features, label, _ = examples[index]
            margin = bias + sum(weights.get(name, 0.0) for name in features)
            gradient = (sigmoid(margin) - label) * weight_of[label]
            for name in features:
                value = weights.get(name, 0.0)
                step = gradient + l2 * value
                square = squares.get(name, 1e-8) + step * step
                squares[name] = square
                weights[name] = value - rate * step / math.sqrt(square)
            bias_square += gradient * gradient
            bias -= rate * gradient / math.sqrt(bias_square)
    return weights, bias


def words(text: str) -> list[str]:
    """Words, numbers read as ``0`` and runs of letters longer than any word as ``~`` (keys, digests)."""
    found = _WORD.findall(text)
    if _UNSPACED.search(text) is None:
        return ["0" if word.isdigit() else "~" if len(word) > _LONGEST else word for word in found]
    out: list[str] = []
    for word in found:
        if word.isdigit():
            out.append("0")
        elif len(word) > _LONGEST and _UNSPACED.search(word) is None:
            out.append("~")
        elif len(word) > 1 and _UNSPACED.search(word) is not None:
            out += [word[i : i + 2] for i in range(len(word) - 1)]
        else:
            out.append(word)
    return out
