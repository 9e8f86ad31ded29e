"""The sliders' Python side: the seeded generator shared with the browser, the reference numbers, the
clamping, the errors, and the state handed to the ES modules. The browser side is tested against
these functions in tests/browser/test_widgets.py.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
import torch

import attnlib
from attnlib.companions import examples
from attnlib.companions.scaling import dot_excess_kurtosis, entropy, sample_variance_se
from attnlib.widgets import DotProductSpread, GeometricAttention, SoftmaxSharpening, TemperatureSlider
from attnlib.widgets import slider_math as wm

WIDGETS_DIR = Path(wm.__file__).resolve().parent


def mulberry32_scalar(seed: int, n: int) -> list[float]:
    """mulberry32 written draw by draw from its published definition, with Python ints."""
    a, out = seed, []
    for _ in range(n):
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = ((a ^ (a >> 15)) * (a | 1)) & 0xFFFFFFFF
        t = (t ^ ((t + ((t ^ (t >> 7)) * (t | 61))) & 0xFFFFFFFF)) & 0xFFFFFFFF
        out.append((t ^ (t >> 14)) / 2**32)
    return out


# --- the generator --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 7, 123456789, 2**32 - 1])
def test_vectorised_stream_is_mulberry32(seed: int) -> None:
    assert wm.uniforms(seed, 300).tolist() == mulberry32_scalar(seed, 300)


def test_uniforms_in_unit_interval_and_normals_standard() -> None:
    u = wm.uniforms(3, 100_000)
    assert u.min() >= 0.0 and u.max() < 1.0
    z = wm.normals(3, 100_001)  # odd length: the last Box-Muller pair is cut
    assert z.shape == (100_001,) and np.isfinite(z).all()
    assert abs(z.mean()) < 4 / math.sqrt(z.size)
    assert abs(z.var() - 1) < 4 * math.sqrt(2 / z.size)
    assert np.array_equal(wm.normals(3, 10), z[:10])  # a prefix of the stream is the shorter stream


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_javascript_generator_gives_the_same_numbers() -> None:
    """_common.js (the browser side) draws the same uniforms and normals as slider_math, bit for bit for
    the uniforms; the normals to within a few ulps of libm's log/cos/sin."""
    script = (WIDGETS_DIR / "_common.js").read_text(encoding="utf-8") + """
const n = normalStream(42); const z = []; for (let i = 0; i < 1001; i++) z.push(n());
const u = []; for (let i = 0; i < 1000; i++) u.push(uniformAt(42, i));
const p = softmax(Float64Array.from([1, 2, 3, 1000]), 7.5);
console.log(JSON.stringify({ u, z, p: Array.from(p), h: entropy(p), f: [fmt(NaN), fmt(Infinity), fmt(-0.0001), fmt(1.23456)] }));
"""
    out = json.loads(subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                                    text=True, check=True, timeout=60).stdout)
    assert out["u"] == wm.uniforms(42, 1000).tolist()
    np.testing.assert_allclose(out["z"], wm.normals(42, 1001), rtol=0, atol=1e-13)
    ref = attnlib.softmax(np.array([1.0, 2.0, 3.0, 1000.0]), temperature=7.5)
    np.testing.assert_allclose(out["p"], ref, rtol=1e-14, atol=1e-300)
    assert math.isclose(out["h"], float(entropy(ref)), rel_tol=1e-12)
    assert out["f"] == ["–", "–", "0.000", "1.235"]  # never "NaN", "Infinity" or "-0.000" on the page


# --- log sliders ------------------------------------------------------------------------------------
def test_slider_scales_hit_their_ends_and_landmarks() -> None:
    assert wm.d_k_at(0) == 1 and wm.d_k_at(wm.D_K_STEPS) == 1024 and wm.d_k_at(60) == 64
    assert wm.temperature_at(0) == pytest.approx(0.1) and wm.temperature_at(wm.TEMPERATURE_STEPS) == pytest.approx(10)
    assert wm.temperature_at(wm.TEMPERATURE_STEPS // 2) == pytest.approx(1.0, abs=1e-15)
    assert wm.dim_at(0) == 1 and wm.dim_at(50) == 10 and wm.dim_at(100) == 100 and wm.dim_at(wm.DIM_STEPS) == 1000


def _nearest_position(value: float, lo: float, hi: float, steps: int) -> int:
    """The slider position whose value is nearest to ``value`` on a log scale (the scale's inverse)."""
    return math.floor(steps * math.log(value / lo) / math.log(hi / lo) + 0.5)


@pytest.mark.parametrize("at,lo,hi,steps", [(wm.d_k_at, *wm.D_K_RANGE, wm.D_K_STEPS), (wm.dim_at, *wm.DIM_RANGE, wm.DIM_STEPS)])
def test_integer_sliders_are_monotone_and_round_trip(at, lo, hi, steps) -> None:  # noqa: ANN001
    values = [at(p) for p in range(steps + 1)]
    assert values == sorted(values) and values[0] == lo and values[-1] == hi
    for p in range(steps + 1):
        assert at(_nearest_position(values[p], lo, hi, steps)) == values[p]
    assert at(-5) == lo and at(10 * steps) == hi and at(float("nan")) == lo  # clamped, never NaN


# --- clamping and errors --------------------------------------------------------------------------
def test_values_are_clamped_to_the_slider_ranges() -> None:
    w = SoftmaxSharpening(d_k=5000)
    assert w.d_k == 1024
    w.d_k = -3
    assert w.d_k == 1
    t = TemperatureSlider(temperature=1000.0)
    assert t.temperature == 10.0
    t.temperature = 1e-4
    assert t.temperature == pytest.approx(0.1)
    s = DotProductSpread(dim=10**6)
    assert s.dim == 1000
    g = GeometricAttention(query=[9.0, -40.0])
    assert g.query == [5.0, -5.0]
    g.query = [-7.5, 2.0]
    assert g.query == [-5.0, 2.0]


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: TemperatureSlider(temperature=0.0), "temperature must be a finite number > 0"),
        (lambda: TemperatureSlider(temperature=-1.0), "> 0, got -1.0"),
        (lambda: TemperatureSlider(temperature=float("nan")), "finite"),
        (lambda: TemperatureSlider([1.0, float("inf")]), "NaN or Inf"),
        (lambda: TemperatureSlider([1.0]), r"between 2 and 16 entries, got shape \(1,\)"),
        (lambda: TemperatureSlider([[1.0, 2.0]]), r"1-d, got shape \(1, 2\)"),
        (lambda: TemperatureSlider([1.0, 2.0], labels=["a"]), "2 strings"),
        (lambda: SoftmaxSharpening(scores=[1.0, float("nan")]), "NaN or Inf"),
        (lambda: SoftmaxSharpening(n_keys=1), "n_keys must be an int from 2 to 16"),
        (lambda: SoftmaxSharpening(seed=-1), r"the seed must be a whole number from 0 to 4294967295 \(2\*\*32 - 1\), got -1"),
        (lambda: DotProductSpread(seed=True), "the seed must be a whole number .* got True"),
        (lambda: GeometricAttention(query=[1.0, 2.0, 3.0]), r"query has 3 coordinates but the keys have 2"),
        (lambda: GeometricAttention(keys=[[1.0, 2.0, 3.0]]), r"keys must have shape \(n, 2\)"),
        (lambda: GeometricAttention(values=[[1.0, 2.0]]), r"values must have 3 rows"),
        (lambda: GeometricAttention(query=[float("nan"), 1.0]), "NaN or Inf"),
        (lambda: wm.geometric_numbers([1.0, 2.0], [[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]), "values must have 1 rows"),
        (lambda: wm.temperature_numbers([1.0, 2.0], 0), "temperature"),
        (lambda: wm.uniforms(0, -1), "n must be >= 0"),
    ],
)
def test_invalid_arguments_raise_clear_value_errors(make, match) -> None:  # noqa: ANN001
    with pytest.raises(ValueError, match=match):
        make()


def test_wrong_types_raise_type_errors() -> None:
    with pytest.raises(TypeError, match="d_k must be an int, got float"):
        SoftmaxSharpening(d_k=2.5)
    with pytest.raises(TypeError, match="temperature must be a real number, got str"):
        TemperatureSlider(temperature="hot")


# --- the numbers --------------------------------------------------------------------------------
def test_sharpening_scores_are_the_dot_products_of_the_seeded_vectors() -> None:
    """One draw in the largest dimension D; dimension d_k takes the first d_k coordinates."""
    d_k, n_keys, d_max = 10, 5, wm.D_K_RANGE[1]
    z = wm.normals(4, d_max * (1 + n_keys))
    q, k = z[:d_k], z[d_max:].reshape(n_keys, d_max)[:, :d_k]
    np.testing.assert_allclose(wm.sharpening_scores(d_k, seed=4, n_keys=n_keys), [k[j] @ q for j in range(n_keys)], rtol=1e-12)
    n = wm.sharpening_numbers(d_k, seed=4, n_keys=n_keys)
    np.testing.assert_allclose(n["unscaled"]["weights"], attnlib.softmax(torch.tensor(n["scores"])).numpy(), rtol=1e-12)
    np.testing.assert_allclose(n["scaled"]["weights"], attnlib.softmax(torch.tensor(n["scores"]), temperature=math.sqrt(d_k)).numpy(), rtol=1e-12)
    for key in ("unscaled", "scaled"):
        p = n[key]["weights"]
        assert n[key]["max_weight"] == p.max() and math.isclose(p.sum(), 1.0)
        assert math.isclose(n[key]["entropy"], -sum(x * math.log(x) for x in p if x > 0), rel_tol=1e-12)


def test_sharpening_changes_smoothly_from_one_step_to_the_next() -> None:
    """Adjacent slider positions share all but a few coordinates, so the winning key changes in few
    steps (a fresh draw per d_k changed it in about 2 of 3 steps)."""
    d_ks = sorted({wm.d_k_at(p) for p in range(wm.D_K_STEPS + 1)})
    rates = []
    for seed in range(4):
        scores = [wm.sharpening_scores(d, seed=seed, n_keys=8) for d in d_ks]
        winners = [int(np.argmax(s)) for s in scores]
        rates.append(sum(a != b for a, b in zip(winners, winners[1:])) / (len(d_ks) - 1))
    assert max(rates) < 0.45 and sum(rates) / len(rates) < 0.3, f"the winning key changes in these shares of steps: {rates}"
    with pytest.raises(ValueError, match="at most 1024"):
        wm.sharpening_scores(2000)


def test_given_scores_stay_fixed_and_only_the_scaled_weights_move() -> None:
    scores = [3.0, 1.0, -2.0]
    a, b = wm.sharpening_numbers(1, scores=scores), wm.sharpening_numbers(900, scores=scores)
    np.testing.assert_array_equal(a["unscaled"]["weights"], b["unscaled"]["weights"])
    np.testing.assert_allclose(b["scaled"]["weights"], attnlib.softmax(np.array(scores) / 30.0), rtol=1e-12)
    assert b["scaled"]["entropy"] > a["scaled"]["entropy"]


def test_temperature_orders_entropy_and_keeps_ranking() -> None:
    scores = [2.0, 0.5, 1.0, -1.0]
    ns = [wm.temperature_numbers(scores, t) for t in (0.1, 0.5, 1.0, 3.0, 10.0)]
    ents = [n["entropy"] for n in ns]
    assert ents == sorted(ents) and ents[-1] < math.log(4)
    for n in ns:
        assert np.argmax(n["weights"]) == 0 and math.isclose(n["weights"].sum(), 1.0)


def test_spread_dots_equal_direct_dot_products() -> None:
    d_max, n_pairs = wm.DIM_RANGE[1], wm.N_PAIRS
    z = wm.normals(5, 2 * n_pairs * d_max).reshape(n_pairs, 2, d_max)
    for d in (1, 2, 37, 1000):
        direct = np.einsum("pd,pd->p", z[:, 0, :d], z[:, 1, :d])  # (pairs,)
        np.testing.assert_allclose(wm.spread_dots(d, seed=5), direct, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(wm.spread_dots(d, seed=5, scaled=True), direct / math.sqrt(d), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dim", [1, 3, 10, 100, 1000])
def test_spread_variance_tracks_the_dimension(dim: int) -> None:
    n = wm.spread_numbers(dim, seed=0)
    se = sample_variance_se(dim, wm.N_PAIRS, dot_excess_kurtosis(dim))
    assert abs(n["variance"] - dim) < 4 * se
    scaled = wm.spread_numbers(dim, seed=0, scaled=True)
    assert math.isclose(scaled["variance"], n["variance"] / dim, rel_tol=1e-9)
    for m in (n, scaled):
        assert m["counts"].sum() == wm.N_PAIRS and m["counts"].shape == (wm.HIST_BINS,)
        assert math.isclose(m["variance"], float(np.var(m["dots"], ddof=1)))


def test_histogram_counts_values_beyond_the_axis_in_the_end_bins() -> None:
    counts, outside = wm.histogram(np.array([-100.0, -4.0, -0.01, 0.0, 3.99, 4.0, 50.0]), 4.0, bins=8)
    assert outside == 3 and counts[0] == 2 and counts[-1] == 3 and counts.sum() == 7


def test_geometric_numbers_reproduce_document_004_and_the_torch_attention() -> None:
    g = wm.geometric_numbers(examples.IT_QUERY, examples.IT_KEYS, examples.IT_VALUES)
    out, w = attnlib.scaled_dot_product_attention(examples.IT_QUERY[None, :].double(), examples.IT_KEYS.double(),
                                                  examples.IT_VALUES.double())
    np.testing.assert_allclose(g["weights"], w[0].numpy(), rtol=1e-6)
    np.testing.assert_allclose(g["context"], out[0].numpy(), rtol=1e-6)
    assert g["scores"].tolist() == [10.0, 7.0, 5.0]
    assert np.round(g["weights"], 2).tolist() == [0.87, 0.10, 0.03]  # document 004's weights
    assert np.round(g["context"], 2).tolist() == [1.78, 1.37]  # document 004's context vector


# --- the widgets ----------------------------------------------------------------------------------
def test_widgets_sync_their_state_and_read_back() -> None:
    w = SoftmaxSharpening(d_k=16, seed=9)
    state = w.get_state()
    assert state["d_k"] == 16 and state["seed"] == 9 and state["_limits"] == {"d_k": [1, 1024, 100]}
    w.d_k = 256  # what the browser does when the reader moves the slider, seen from Python
    assert w.numbers()["d_k"] == 256 and w.numbers() is not None
    g = GeometricAttention()
    assert g.get_state()["key_vectors"] == [[3.0, 1.0], [1.0, 4.0], [1.5, 0.5]]
    assert g.get_state()["value_vectors"] == [[2.0, 1.5], [0.5, 0.3], [-0.5, 1.2]]  # decimals, not float32 noise
    assert g.words == list(examples.IT_WORDS)


def test_text_repr_is_short_and_stable() -> None:
    """The notebook stores text/plain next to the widget view; nbval compares it."""
    for w, text in [
        (SoftmaxSharpening(d_k=64), "SoftmaxSharpening(d_k=64, seed=0, n_keys=8, show_scaled=True)"),
        (TemperatureSlider(temperature=0.5), "TemperatureSlider(temperature=0.500, n_scores=3)"),
        (DotProductSpread(dim=3, scaled=True), "DotProductSpread(dim=3, seed=0, scaled=True)"),
        (GeometricAttention(), "GeometricAttention(query=[3.0, 1.0], words=['animal', 'street', 'because'])"),
    ]:
        assert repr(w) == text
        bundle = w._repr_mimebundle_()[0]
        assert bundle["text/plain"] == text and "application/vnd.jupyter.widget-view+json" in bundle


def test_es_modules_ship_as_package_data_and_are_self_contained() -> None:
    files = {p.name for p in resources.files("attnlib.widgets").iterdir()}
    assert {"_dom.js", "_common.js", "sharpening.js", "temperature.js", "spread.js", "geometric.js", "widgets.css"} <= files
    for cls in (SoftmaxSharpening, TemperatureSlider, DotProductSpread, GeometricAttention):
        esm = str(cls._esm)
        assert esm.count("export default") == 1 and esm.count("function uniformAt(") == 1 and esm.count("function h(") == 1
        assert "import " not in esm and "http" not in esm.replace("http://www.w3.org/2000/svg", "")


# --- "Train it yourself" (chapter 17): the page's trainer against attnlib.companions.trainer, without a browser --------
from attnlib.companions import learning, trainer  # noqa: E402
from attnlib.widgets import TrainItYourself  # noqa: E402

_TRAIN_IN_NODE = """
const [settings, fillers] = JSON.parse(process.argv[1]);
const t = createTrainer(settings, fillers);
while (trainOneStep(t)) {}
console.log(JSON.stringify({ losses: t.losses, accuracies: t.accuracies, rows: t.rows, stopped: t.stopped,
  weights: Object.fromEntries(Object.entries(t.weights).map(([k, v]) => [k, Array.from(v)])) }));
"""


@pytest.mark.parametrize("settings", [
    {"n_train": 60, "n_test": 40, "steps": 15, "seed": 1},
    {"n_train": 40, "n_test": 30, "steps": 12, "seed": 2, "d_model": 5, "weight_decay": 0.0, "lr": 0.05,
     "sentences": [{"sense": "bat:sport", "text": "the bat and the ball"}]},
    {"n_train": 50, "n_test": 20, "steps": 10, "seed": 3, "lr": 0.7},  # diverges
])
def test_trainer_core_js_trains_what_attnlib_trainer_trains(settings: dict) -> None:
    """trainer_core.js (the page's training) run by Node: the same losses, accuracies, rows and weights as
    attnlib.companions.trainer (the browser itself is compared on the built page, 21 cases and the chapter's run, in the
    browser checks)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    script = (WIDGETS_DIR / "trainer_core.js").read_text(encoding="utf-8") + _TRAIN_IN_NODE
    arg = json.dumps([trainer.check_settings(settings), list(learning.FILLERS)])
    out = json.loads(subprocess.run(["node", "--input-type=module", "-e", script, arg], capture_output=True,
                                    text=True, check=True, timeout=120).stdout)
    ref = trainer.train(settings)
    assert (out["stopped"] is None) == (ref.stopped is None) and len(out["losses"]) == len(ref.losses)
    np.testing.assert_allclose(out["losses"], ref.losses, rtol=1e-12)
    assert out["accuracies"] == ref.accuracies
    np.testing.assert_allclose(out["rows"][-1], ref.rows[-1], rtol=1e-9, atol=1e-15)
    for name in trainer.PARAMS:
        np.testing.assert_allclose(np.reshape(out["weights"][name], ref.weights[name].shape), ref.weights[name], rtol=1e-9)


def test_trainer_widget_syncs_checks_and_trains_in_python() -> None:
    w = TrainItYourself({"n_train": 50, "n_test": 20, "steps": 5})
    assert w.settings == trainer.check_settings({"n_train": 50, "n_test": 20, "steps": 5})
    assert w.defaults == trainer.check_settings({}) and w.limits["d_model"] == list(trainer.LIMITS["d_model"])
    assert repr(w) == "TrainItYourself(n_train=50, d_model=16, lr=0.02, weight_decay=0.5, steps=5, seed=0)"
    w.settings = {**w.settings, "seed": 3}  # what the page sends when the reader trains, seen from Python
    assert w.numbers()["losses"] == trainer.train({"n_train": 50, "n_test": 20, "steps": 5, "seed": 3}).losses
    with pytest.raises(ValueError, match="got nan"):
        w.settings = {**w.settings, "lr": float("nan")}
    assert w.settings["lr"] == 0.02  # a rejected setting leaves the widget as it was
    esm = str(TrainItYourself._esm)
    # trainer_core.js twice: as the module's code and as the text its Web Worker is made from
    assert esm.count("export default") == 1 and esm.count("function createTrainer(") == 2
    assert "const TRAINER_CORE_SOURCE = " in esm and "new Worker(" in esm and "import(" not in esm
    assert not [line for line in esm.splitlines() if line.startswith("import ")]
    assert "http" not in esm.replace("http://www.w3.org/2000/svg", "")
    files = {p.name for p in resources.files("attnlib.widgets").iterdir()}
    assert {"trainer.js", "trainer_core.js", "trainer.css"} <= files


from attnlib.companions import induction  # noqa: E402
from attnlib.widgets import WatchInduction  # noqa: E402


def test_induction_widget_syncs_checks_trains_in_python_and_prints() -> None:
    small = {"steps": 4, "batch": 3}
    w = WatchInduction(small)
    assert w.settings == induction.check_settings(small) and w.defaults == induction.check_settings({})
    assert w.limits["layers"] == [1, 2]
    assert repr(w) == "WatchInduction(layers=2, heads=2, d_model=32, lr=0.01, steps=4, seed=0)"
    w.settings = {**w.settings, "seed": 3}
    n = w.numbers()
    assert n["losses"] == induction.train({**small, "seed": 3}).losses and n["step"] == 4
    with pytest.raises(ValueError, match="layers must be a whole number from 1 to 2"):
        w.settings = {**w.settings, "layers": 0}
    assert w.settings["layers"] == 2  # a rejected setting leaves the widget as it was
    esm = str(WatchInduction._esm)
    # trainer_core.js and induction_core.js twice: as the module's code and as the text of its Web Worker
    assert esm.count("export default") == 1 and esm.count("function createInduction(") == 2
    assert "const INDUCTION_CORE_SOURCE = " in esm and "const TRAINER_CORE_SOURCE = " in esm and "new Worker(" in esm
    assert not [line for line in esm.splitlines() if line.startswith("import ")]
    assert "http" not in esm.replace("http://www.w3.org/2000/svg", "")
    from tools import pdf_source

    fig, moving = pdf_source.figure(w)
    left, right = fig.axes[:2]
    assert np.allclose(left.get_lines()[0].get_ydata(), n["second"])
    assert np.allclose(right.get_lines()[2].get_ydata(), [p[1][0] for p in n["prefix"]])  # L2H1
    assert "trains the model step by step" in moving
