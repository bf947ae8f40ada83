"""Scores on scripts adapted from real users' reports (tests/realworld/, written by helpers who
never read the engine) and on reductions of real repos' false alarms.

The bar the detection issue sets is recall >= 0.90 at the root-cause line with zero false
alarms. Recall is not there yet: this test keeps what has been reached from slipping (first
scores, before any engine change for each set: 11/47 = 0.23, 6/32 = 0.19 and 9/28 = 0.32;
floors at the scores reached: 40/47, 29/32, 22/28 and 20/30; the fourth set's held-out score
was 11/30) and holds false alarms at zero.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.realworld.score import score

RESULT = score()
SECOND = score(Path(__file__).resolve().parents[1] / "realworld2")  # held out when it arrived
THIRD = score(Path(__file__).resolve().parents[1] / "realworld3")  # held out until the session that brought the fourth
FOURTH = score(Path(__file__).resolve().parents[1] / "realworld4")  # held out when it arrived
FIFTH = score(Path(__file__).resolve().parents[1] / "realworld5")  # held out when it arrived (8/30)
SIXTH = score(Path(__file__).resolve().parents[1] / "realworld6")  # held out when it arrived (11/30)
SEVENTH = score(Path(__file__).resolve().parents[1] / "realworld7")  # held out when it arrived (19/30); 22/30 after the changes its misses led to
EIGHTH = score(Path(__file__).resolve().parents[1] / "realworld8")  # held out when it arrived (10/30 at 3908c74, 11/30 at this session's engine)
NINTH = score(Path(__file__).resolve().parents[1] / "realworld9")  # held out when it arrived (12/30 at c37e9e2, 13/30 at this session's engine)
TENTH = score(Path(__file__).resolve().parents[1] / "realworld10")  # held out when it arrived (14/30 at c37e9e2, 15/30 at the engine it arrived to)
ELEVENTH = score(Path(__file__).resolve().parents[1] / "realworld11")  # held out when it arrived (9/30 at c37e9e2, 12/30 at 5cb9817)
TWELFTH = score(Path(__file__).resolve().parents[1] / "realworld12")  # held out when it arrived (9/30 at d576551 and at 6f4809f)
THIRTEENTH = score(Path(__file__).resolve().parents[1] / "realworld13")  # held out when it arrived (13/30 at d576551, 14/30 at e1deda5)
FOURTEENTH = score(Path(__file__).resolve().parents[1] / "realworld14")  # held out when it arrived (12/30 at d576551, 14/30 at 3f47d20)
FIFTEENTH = score(Path(__file__).resolve().parents[1] / "realworld15")  # held out when it arrived (19/30 and 1 false alarm at cd6b9e2)
SIXTEENTH = score(Path(__file__).resolve().parents[1] / "realworld16")  # held out when it arrived (13/30 at cd6b9e2, 14/30 at f443368)
SEVENTEENTH = score(Path(__file__).resolve().parents[1] / "realworld17")  # held out when it arrived (14/30 at 202aefe and at 83e8d28)
EIGHTEENTH = score(Path(__file__).resolve().parents[1] / "realworld18")  # held out when it arrived (17/30 and 1 false alarm at 202aefe and d48f38b)
NINETEENTH = score(Path(__file__).resolve().parents[1] / "realworld19")  # held out when it arrived (20/30, 0 false alarms, at b177113 and 4babb91)
TWENTIETH = score(Path(__file__).resolve().parents[1] / "realworld20")  # held out when it arrived (16/28 and 4 false alarms at b177113 and dd94430)
TWENTY_FIRST = score(Path(__file__).resolve().parents[1] / "realworld21")  # held out when it arrived (12/29, 0 false alarms, at 7b2be87 and 09de535)
TWENTY_SECOND = score(Path(__file__).resolve().parents[1] / "realworld22")  # held out when it arrived (8/26, 0 false alarms, at 7b2be87 and 21b631f)
LIGHTNING = score(Path(__file__).resolve().parents[1] / "realworld_lightning")  # held out: 0/10 before Lightning support


def test_the_set_is_the_size_the_issue_asks_for() -> None:
    assert RESULT["broken"] >= 40 and RESULT["correct"] >= 20


def test_root_cause_recall_does_not_slip() -> None:
    hits, total = RESULT["root_hits"], RESULT["broken"]
    assert hits / total >= 0.85, f"{hits}/{total}: " + "\n".join(RESULT["misses"])  # type: ignore[operator, arg-type]


def test_no_false_alarm_on_correct_scripts() -> None:
    assert RESULT["false_alarms"] == []


# Real repositories' false alarms not fixed yet (tests/realworld/REPOS.md, "Second scan"):
# BasicSR's inference scripts load weights its training code saved with `param.cpu()` in
# another file, which a one-file analysis cannot see; DG010 warns on any `torch.load` without
# `map_location` in a script that checks for CUDA. The third scan (REPOS.md) added two of the
# same kind: litgpt loads a checkpoint its converter wrote with CPU tensors (quiet since
# 2026-12-04: a load is matched to the saves of the same file name, not only the same text,
# and this save's tensors were moved to the CPU), and a diffusers example reloads, in the same
# run, a file it has just written. A new false alarm, or one that goes away, fails here.
KNOWN_REPO_FALSE_ALARMS = {
    "BasicSR_inference_esrgan_cpu_params.py:65:DG010",
    # scan 6: files of Python strings (no tensors, so nothing for map_location to move) found by a glob
    "pytorch_geometric_txt2kg_string_triples.py:67:DG010",
    "pytorch_geometric_txt2kg_string_triples.py:93:DG010",
    # scan 12 (REPOS12.md), BasicSR's kind: pytorch-AdaIN's test scripts load a decoder its train.py
    # saved after moving each tensor to the CPU, and a VGG its converter script wrote from a CPU model
    "scan12_pytorch-AdaIN_decoder_saved_as_cpu_tensors.py:52:DG010",
    "scan12_pytorch-AdaIN_vgg_converted_on_cpu.py:39:DG010",
    # scan 13 (REPOS13.md), the same kind: Chinese-Vicuna's quant_generate.py loads a GPTQ checkpoint that its
    # quant_llama.py (another script) packs after moving every layer back to the CPU
    "scan13_Chinese-Vicuna_gptq_packed_on_cpu.py:108:DG010",
    # scan 46 (REPOS46.md): GraphCMR's trainer builds `Mesh()`, whose `.to(device)` runs with the parameter's
    # default `torch.device('cuda')`, before the pretrained load: a CPU-only run stops there first. A move to a
    # device known only through a parameter's default is not yet read as a move written to need CUDA.
    "scan46_GraphCMR_pretrained_load_after_cuda_default_mesh.py:55:DG010",
}


def test_real_repos_reductions_raise_no_new_false_alarm() -> None:
    """Each file in tests/realworld/repo_fp/ reduces a false alarm seen on a real repository
    (tests/realworld/REPOS.md) to runnable, correct code."""
    assert RESULT["repo_fp"] >= 5
    assert set(RESULT["repo_false_alarms"]) == KNOWN_REPO_FALSE_ALARMS  # type: ignore[call-overload]


def test_second_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SECOND["broken"] >= 30 and SECOND["correct"] >= 12
    assert SECOND["false_alarms"] == []
    hits, total = SECOND["root_hits"], SECOND["broken"]
    assert hits / total >= 0.90, f"{hits}/{total}: " + "\n".join(SECOND["misses"])  # type: ignore[operator, arg-type]


def test_third_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRD["broken"] >= 25 and THIRD["correct"] >= 10
    assert THIRD["false_alarms"] == []
    hits, total = THIRD["root_hits"], THIRD["broken"]
    assert hits / total >= 0.78, f"{hits}/{total}: " + "\n".join(THIRD["misses"])  # type: ignore[operator, arg-type]


def test_fourth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FOURTH["broken"] >= 30 and FOURTH["correct"] >= 12
    assert FOURTH["false_alarms"] == []
    hits, total = FOURTH["root_hits"], FOURTH["broken"]
    assert hits / total >= 0.80, f"{hits}/{total}: " + "\n".join(FOURTH["misses"])  # type: ignore[operator, arg-type]


def test_fifth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTH["broken"] >= 30 and FIFTH["correct"] >= 12
    assert FIFTH["false_alarms"] == []
    hits, total = FIFTH["root_hits"], FIFTH["broken"]
    assert hits / total >= 0.73, f"{hits}/{total}: " + "\n".join(FIFTH["misses"])  # type: ignore[operator, arg-type]


def test_sixth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTH["broken"] >= 30 and SIXTH["correct"] >= 12
    assert SIXTH["false_alarms"] == []
    hits, total = SIXTH["root_hits"], SIXTH["broken"]
    assert hits / total >= 0.80, f"{hits}/{total}: " + "\n".join(SIXTH["misses"])  # type: ignore[operator, arg-type]


def test_lightning_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    """Trainer.fit programs (tests/realworld_lightning): 0/10 before the engine knew Lightning,
    3/10 with the support written before the set arrived, 4/10 after `Tensor.unfold`."""
    assert LIGHTNING["broken"] >= 10 and LIGHTNING["correct"] >= 5
    assert LIGHTNING["false_alarms"] == []
    hits, total = LIGHTNING["root_hits"], LIGHTNING["broken"]
    assert hits / total >= 0.80, f"{hits}/{total}: " + "\n".join(LIGHTNING["misses"])  # type: ignore[operator, arg-type]


def test_seventh_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTH["broken"] >= 30 and SEVENTH["correct"] >= 12
    assert SEVENTH["false_alarms"] == []
    hits, total = SEVENTH["root_hits"], SEVENTH["broken"]
    assert hits / total >= 0.7, f"{hits}/{total}: " + "\n".join(SEVENTH["misses"])  # type: ignore[operator, arg-type]  # h30 (DG017: where the bf16 activation is made), h09 (DG006: where int32 is chosen) and h24 (DG011: the load, not the checkpoint entry) follow the conventions most sets use


def test_eighth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert EIGHTH["broken"] >= 30 and EIGHTH["correct"] >= 12
    assert EIGHTH["false_alarms"] == []
    hits, total = EIGHTH["root_hits"], EIGHTH["broken"]
    assert hits / total >= 0.66, f"{hits}/{total}: " + "\n".join(EIGHTH["misses"])  # type: ignore[operator, arg-type]


def test_eleventh_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert ELEVENTH["broken"] >= 30 and ELEVENTH["correct"] >= 12
    assert ELEVENTH["false_alarms"] == []
    hits, total = ELEVENTH["root_hits"], ELEVENTH["broken"]
    assert hits / total >= 0.63, f"{hits}/{total}: " + "\n".join(ELEVENTH["misses"])  # type: ignore[operator, arg-type]


def test_tenth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TENTH["broken"] >= 30 and TENTH["correct"] >= 12
    assert TENTH["false_alarms"] == []
    hits, total = TENTH["root_hits"], TENTH["broken"]
    assert hits / total >= 0.80, f"{hits}/{total}: " + "\n".join(TENTH["misses"])  # type: ignore[operator, arg-type]


def test_ninth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert NINTH["broken"] >= 30 and NINTH["correct"] >= 12
    assert NINTH["false_alarms"] == []
    hits, total = NINTH["root_hits"], NINTH["broken"]
    assert hits / total >= 0.76, f"{hits}/{total}: " + "\n".join(NINTH["misses"])  # type: ignore[operator, arg-type]


def test_twelfth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWELFTH["broken"] >= 30 and TWELFTH["correct"] >= 12
    assert TWELFTH["false_alarms"] == []
    hits, total = TWELFTH["root_hits"], TWELFTH["broken"]
    assert hits / total >= 0.50, f"{hits}/{total}: " + "\n".join(TWELFTH["misses"])  # type: ignore[operator, arg-type]


def test_thirteenth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTEENTH["broken"] >= 30 and THIRTEENTH["correct"] >= 12
    assert THIRTEENTH["false_alarms"] == []
    hits, total = THIRTEENTH["root_hits"], THIRTEENTH["broken"]
    assert hits / total >= 0.53, f"{hits}/{total}: " + "\n".join(THIRTEENTH["misses"])  # type: ignore[operator, arg-type]


def test_fourteenth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FOURTEENTH["broken"] >= 30 and FOURTEENTH["correct"] >= 12
    assert FOURTEENTH["false_alarms"] == []
    hits, total = FOURTEENTH["root_hits"], FOURTEENTH["broken"]
    assert hits / total >= 0.7, f"{hits}/{total}: " + "\n".join(FOURTEENTH["misses"])  # type: ignore[operator, arg-type]


def test_fifteenth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTEENTH["broken"] >= 30 and FIFTEENTH["correct"] >= 12
    assert FIFTEENTH["false_alarms"] == []
    hits, total = FIFTEENTH["root_hits"], FIFTEENTH["broken"]
    assert hits / total >= 0.8, f"{hits}/{total}: " + "\n".join(FIFTEENTH["misses"])  # type: ignore[operator, arg-type]


def test_sixteenth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTEENTH["broken"] >= 30 and SIXTEENTH["correct"] >= 12
    assert SIXTEENTH["false_alarms"] == []
    hits, total = SIXTEENTH["root_hits"], SIXTEENTH["broken"]
    assert hits / total >= 0.6, f"{hits}/{total}: " + "\n".join(SIXTEENTH["misses"])  # type: ignore[operator, arg-type]


def test_seventeenth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTEENTH["broken"] >= 30 and SEVENTEENTH["correct"] >= 12
    assert SEVENTEENTH["false_alarms"] == []
    hits, total = SEVENTEENTH["root_hits"], SEVENTEENTH["broken"]
    assert hits / total >= 0.7, f"{hits}/{total}: " + "\n".join(SEVENTEENTH["misses"])  # type: ignore[operator, arg-type]


def test_eighteenth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert EIGHTEENTH["broken"] >= 30 and EIGHTEENTH["correct"] >= 12
    assert EIGHTEENTH["false_alarms"] == []
    hits, total = EIGHTEENTH["root_hits"], EIGHTEENTH["broken"]
    assert hits / total >= 0.55, f"{hits}/{total}: " + "\n".join(EIGHTEENTH["misses"])  # type: ignore[operator, arg-type]


def test_nineteenth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert NINETEENTH["broken"] >= 30 and NINETEENTH["correct"] >= 12
    assert NINETEENTH["false_alarms"] == []
    hits, total = NINETEENTH["root_hits"], NINETEENTH["broken"]
    assert hits / total >= 0.75, f"{hits}/{total}: " + "\n".join(NINETEENTH["misses"])  # type: ignore[operator, arg-type]


def test_twentieth_set_keeps_its_recall_and_only_its_two_read_findings_on_correct_scripts() -> None:
    """Two findings on its correct scripts were read and kept (tests/realworld20/README.md: a real bfloat16 stall and
    a real CUDA device mismatch that the author, without a GPU, did not see); no other may appear."""
    assert TWENTIETH["broken"] >= 28 and TWENTIETH["correct"] >= 12
    kept = {"w_c10_ctr_trainer_rebuilds_optimizer_after_cast.py:37:DG013", "w_c11_deep_potential_fused_only_float64.py:32:DG009"}
    assert set(TWENTIETH["false_alarms"]) <= kept, TWENTIETH["false_alarms"]  # type: ignore[arg-type]
    hits, total = TWENTIETH["root_hits"], TWENTIETH["broken"]
    assert hits / total >= 0.55, f"{hits}/{total}: " + "\n".join(TWENTIETH["misses"])  # type: ignore[operator, arg-type]



def test_twenty_first_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWENTY_FIRST["broken"] >= 29 and TWENTY_FIRST["correct"] >= 12
    assert TWENTY_FIRST["false_alarms"] == []
    hits, total = TWENTY_FIRST["root_hits"], TWENTY_FIRST["broken"]
    assert hits / total >= 0.6, f"{hits}/{total}: " + "\n".join(TWENTY_FIRST["misses"])  # type: ignore[operator, arg-type]


def test_twenty_second_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWENTY_SECOND["broken"] >= 26 and TWENTY_SECOND["correct"] >= 12
    assert TWENTY_SECOND["false_alarms"] == []
    hits, total = TWENTY_SECOND["root_hits"], TWENTY_SECOND["broken"]
    assert hits / total >= 0.4, f"{hits}/{total}: " + "\n".join(TWENTY_SECOND["misses"])  # type: ignore[operator, arg-type]


TWENTY_THIRD = score(Path(__file__).resolve().parents[1] / "realworld23")  # held out when it arrived (7/18, 2 false alarms, at b5cb796 and 235bfd3)


def test_twenty_third_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWENTY_THIRD["broken"] >= 18 and TWENTY_THIRD["correct"] >= 12
    assert TWENTY_THIRD["false_alarms"] == []
    hits, total = TWENTY_THIRD["root_hits"], TWENTY_THIRD["broken"]
    assert hits / total >= 0.38, f"{hits}/{total}: " + "\n".join(TWENTY_THIRD["misses"])  # type: ignore[operator, arg-type]


TWENTY_FOURTH = score(Path(__file__).resolve().parents[1] / "realworld24")  # held out when it arrived (13/25, 0 false alarms, at b5cb796 and 73cdad8)
TWENTY_FIFTH = score(Path(__file__).resolve().parents[1] / "realworld25")  # held out when it arrived (5/10, 0 false alarms, at b5cb796 and 73cdad8)


def test_twenty_fourth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWENTY_FOURTH["broken"] >= 25 and TWENTY_FOURTH["correct"] >= 12
    assert TWENTY_FOURTH["false_alarms"] == []
    hits, total = TWENTY_FOURTH["root_hits"], TWENTY_FOURTH["broken"]
    assert hits / total >= 0.55, f"{hits}/{total}: " + "\n".join(TWENTY_FOURTH["misses"])  # type: ignore[operator, arg-type]


def test_twenty_fifth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWENTY_FIFTH["broken"] >= 10 and TWENTY_FIFTH["correct"] >= 5
    assert TWENTY_FIFTH["false_alarms"] == []
    hits, total = TWENTY_FIFTH["root_hits"], TWENTY_FIFTH["broken"]
    assert hits / total >= 0.5, f"{hits}/{total}: " + "\n".join(TWENTY_FIFTH["misses"])  # type: ignore[operator, arg-type]


TWENTY_SIXTH = score(Path(__file__).resolve().parents[1] / "realworld26")  # held out when it arrived (12/22, 0 false alarms, at 24138ac and 483c9cf)
TWENTY_SEVENTH = score(Path(__file__).resolve().parents[1] / "realworld27")  # held out when it arrived (5/16, 0 false alarms, at 24138ac and 483c9cf)


def test_twenty_sixth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWENTY_SIXTH["broken"] >= 22 and TWENTY_SIXTH["correct"] >= 11
    assert TWENTY_SIXTH["false_alarms"] == []
    hits, total = TWENTY_SIXTH["root_hits"], TWENTY_SIXTH["broken"]
    assert hits / total >= 0.6, f"{hits}/{total}: " + "\n".join(TWENTY_SIXTH["misses"])  # type: ignore[operator, arg-type]


def test_twenty_seventh_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWENTY_SEVENTH["broken"] >= 16 and TWENTY_SEVENTH["correct"] >= 8
    assert TWENTY_SEVENTH["false_alarms"] == []
    hits, total = TWENTY_SEVENTH["root_hits"], TWENTY_SEVENTH["broken"]
    assert hits / total >= 0.45, f"{hits}/{total}: " + "\n".join(TWENTY_SEVENTH["misses"])  # type: ignore[operator, arg-type]


# Multi-file projects (each case a folder; every file is checked, and a finding rooted in another
# file of the project is shown there too): held out when it arrived (2/11 at the root, 5/11 with
# the root named in related information, 0 false alarms, at 970d70f); 5/11 once findings were
# shown in the file where the fix goes, 8/11 after reading its misses
TWENTY_NINTH = score(Path(__file__).resolve().parents[1] / "realworld29")


def test_twenty_ninth_set_of_projects_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWENTY_NINTH["broken"] >= 11 and TWENTY_NINTH["correct"] >= 6
    assert TWENTY_NINTH["false_alarms"] == []
    hits, total = TWENTY_NINTH["root_hits"], TWENTY_NINTH["broken"]
    assert hits / total >= 0.7, f"{hits}/{total}: " + "\n".join(TWENTY_NINTH["misses"])  # type: ignore[operator, arg-type]


TWENTY_EIGHTH = score(Path(__file__).resolve().parents[1] / "realworld28")  # held out when it arrived (7/10, 0 false alarms, at 970d70f and at that session's engine)


def test_twenty_eighth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert TWENTY_EIGHTH["broken"] >= 10 and TWENTY_EIGHTH["correct"] >= 6
    assert TWENTY_EIGHTH["false_alarms"] == []
    hits, total = TWENTY_EIGHTH["root_hits"], TWENTY_EIGHTH["broken"]
    assert hits / total >= 0.65, f"{hits}/{total}: " + "\n".join(TWENTY_EIGHTH["misses"])  # type: ignore[operator, arg-type]


THIRTY_FIRST = score(Path(__file__).resolve().parents[1] / "realworld31")  # held out when it arrived (14/20, 0 false alarms, at 970d70f and at that session's engine)


def test_thirty_first_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTY_FIRST["broken"] >= 20 and THIRTY_FIRST["correct"] >= 10
    assert THIRTY_FIRST["false_alarms"] == []
    hits, total = THIRTY_FIRST["root_hits"], THIRTY_FIRST["broken"]
    assert hits / total >= 0.65, f"{hits}/{total}: " + "\n".join(THIRTY_FIRST["misses"])  # type: ignore[operator, arg-type]


# Multi-file projects, held out when they arrived: set 30 at 4/12 (a4cb25c), 6/12 after reading
# its misses; set 33 at 6/12 (a4cb25c) and 7/12 (af7c119, the engine when it arrived), not read
THIRTIETH = score(Path(__file__).resolve().parents[1] / "realworld30")
THIRTY_THIRD = score(Path(__file__).resolve().parents[1] / "realworld33")


def test_thirtieth_set_of_projects_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTIETH["broken"] >= 12 and THIRTIETH["correct"] >= 6
    assert THIRTIETH["false_alarms"] == []
    hits, total = THIRTIETH["root_hits"], THIRTIETH["broken"]
    assert hits / total >= 0.45, f"{hits}/{total}: " + "\n".join(THIRTIETH["misses"])  # type: ignore[operator, arg-type]


def test_thirty_third_set_of_projects_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTY_THIRD["broken"] >= 12 and THIRTY_THIRD["correct"] >= 6
    assert THIRTY_THIRD["false_alarms"] == []
    hits, total = THIRTY_THIRD["root_hits"], THIRTY_THIRD["broken"]
    assert hits / total >= 0.6, f"{hits}/{total}: " + "\n".join(THIRTY_THIRD["misses"])  # type: ignore[operator, arg-type]


THIRTY_FOURTH = score(Path(__file__).resolve().parents[1] / "realworld34")  # held out when it arrived: 8/14 (10/14 any line), 0 false alarms, at 05c2790+


def test_thirty_fourth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTY_FOURTH["broken"] >= 14 and THIRTY_FOURTH["correct"] >= 7
    assert THIRTY_FOURTH["false_alarms"] == []
    hits, total = THIRTY_FOURTH["root_hits"], THIRTY_FOURTH["broken"]
    assert hits / total >= 0.55, f"{hits}/{total}: " + "\n".join(THIRTY_FOURTH["misses"])  # type: ignore[operator, arg-type]


# Set 35 (repository files pinned to a commit): 3/12 (6/12 any line) and 2 false alarms when it arrived; one of
# them (ad_c06, DG009) was the set's own GPU bug, corrected in the set (README); the other fixed in the engine
THIRTY_FIFTH = score(Path(__file__).resolve().parents[1] / "realworld35")


def test_thirty_fifth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTY_FIFTH["broken"] >= 12 and THIRTY_FIFTH["correct"] >= 6
    assert THIRTY_FIFTH["false_alarms"] == []
    hits, total = THIRTY_FIFTH["root_hits"], THIRTY_FIFTH["broken"]
    assert hits / total >= 0.2, f"{hits}/{total}: " + "\n".join(THIRTY_FIFTH["misses"])  # type: ignore[operator, arg-type]


# Set 36 (repository files pinned to a commit, everyday hazards in trainer-class shapes): 8/12 (9/12 any line)
# and no false alarm when it arrived; 10/12 after reading it (README)
THIRTY_SIXTH = score(Path(__file__).resolve().parents[1] / "realworld36")


def test_thirty_sixth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTY_SIXTH["broken"] >= 12 and THIRTY_SIXTH["correct"] >= 6
    assert THIRTY_SIXTH["false_alarms"] == []
    hits, total = THIRTY_SIXTH["root_hits"], THIRTY_SIXTH["broken"]
    assert hits / total >= 0.8, f"{hits}/{total}: " + "\n".join(THIRTY_SIXTH["misses"])  # type: ignore[operator, arg-type]


# Set 37 (mixed precision and devices in real training loops, repository files pinned to a commit): 2/12
# (4/12 any line) and no false alarm when it arrived; 7/12 after reading it (README)
THIRTY_SEVENTH = score(Path(__file__).resolve().parents[1] / "realworld37")


def test_thirty_seventh_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTY_SEVENTH["broken"] >= 12 and THIRTY_SEVENTH["correct"] >= 6
    assert THIRTY_SEVENTH["false_alarms"] == []
    hits, total = THIRTY_SEVENTH["root_hits"], THIRTY_SEVENTH["broken"]
    assert hits / total >= 0.55, f"{hits}/{total}: " + "\n".join(THIRTY_SEVENTH["misses"])  # type: ignore[operator, arg-type]


# Set 38 (RL, graphs, audio, time series, tabular, recommenders, detection; repository files pinned to a commit):
# 3/12 (6/12 any line) and 5 false alarms on its 6 correct scripts when it arrived; 6/12 after reading it (README)
THIRTY_EIGHTH = score(Path(__file__).resolve().parents[1] / "realworld38")


def test_thirty_eighth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTY_EIGHTH["broken"] >= 12 and THIRTY_EIGHTH["correct"] >= 6
    assert THIRTY_EIGHTH["false_alarms"] == []
    hits, total = THIRTY_EIGHTH["root_hits"], THIRTY_EIGHTH["broken"]
    assert hits / total >= 0.5, f"{hits}/{total}: " + "\n".join(THIRTY_EIGHTH["misses"])  # type: ignore[operator, arg-type]


# Set 39 (adapted from public bug reports: EEG, skorch, darts, pytorch-forecasting, sentence-transformers, PyG,
# careamics, SuPar, ...): 5/14 and 1 false alarm on its 7 correct scripts when it arrived; 9/14 after reading it (README)
THIRTY_NINTH = score(Path(__file__).resolve().parents[1] / "realworld39")


def test_thirty_ninth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert THIRTY_NINTH["broken"] >= 14 and THIRTY_NINTH["correct"] >= 7
    assert THIRTY_NINTH["false_alarms"] == []
    hits, total = THIRTY_NINTH["root_hits"], THIRTY_NINTH["broken"]
    assert hits / total >= 0.6, f"{hits}/{total}: " + "\n".join(THIRTY_NINTH["misses"])  # type: ignore[operator, arg-type]


# Set 40 (repository training code: GANs, VAEs, OCR, speech, point clouds, super-resolution, style transfer,
# distillation, meta-learning, optical flow, text classification, trajectories, pose): 3/14 and 2 false alarms on its
# 7 correct scripts when it arrived; 5/14 after reading it (README)
FORTIETH = score(Path(__file__).resolve().parents[1] / "realworld40")


def test_fortieth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FORTIETH["broken"] >= 14 and FORTIETH["correct"] >= 7
    assert FORTIETH["false_alarms"] == []
    hits, total = FORTIETH["root_hits"], FORTIETH["broken"]
    assert hits / total >= 0.35, f"{hits}/{total}: " + "\n".join(FORTIETH["misses"])  # type: ignore[operator, arg-type]


# Set 41 (GitHub issue threads with users' own code: SB3, SAC, char-CNN, BiLSTM-CRF, ENet, NeRF, detectron2,
# SAINT, LAVIS, PointNet, CEFCON, ...): 6/14 and 1 false alarm (a true cuda-only hazard of the correct script, which
# was then fixed; README) when it arrived; 6/14 after reading it
FORTY_FIRST = score(Path(__file__).resolve().parents[1] / "realworld41")


def test_forty_first_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FORTY_FIRST["broken"] >= 14 and FORTY_FIRST["correct"] >= 7
    assert FORTY_FIRST["false_alarms"] == []
    hits, total = FORTY_FIRST["root_hits"], FORTY_FIRST["broken"]
    assert hits / total >= 0.4, f"{hits}/{total}: " + "\n".join(FORTY_FIRST["misses"])  # type: ignore[operator, arg-type]


# Set 42 (GitHub issue and pull-request threads with users' own code: DQN/ptan CartPole, car-colour CNN, RE-Net,
# YOLOX, DeepLog, PyG GCN/NNConv, nerfstudio, TUD_RL; 10 broken + 7 correct, fewer than asked: most threads of
# the other codes were already used by earlier sets): 6/10 and 0 false alarms when it arrived (engine 14d378b);
# 6/10 after reading it (README)
FORTY_SECOND = score(Path(__file__).resolve().parents[1] / "realworld42")


def test_forty_second_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FORTY_SECOND["broken"] >= 10 and FORTY_SECOND["correct"] >= 7
    assert FORTY_SECOND["false_alarms"] == []
    hits, total = FORTY_SECOND["root_hits"], FORTY_SECOND["broken"]
    assert hits / total >= 0.55, f"{hits}/{total}: " + "\n".join(FORTY_SECOND["misses"])  # type: ignore[operator, arg-type]


# Set 43 (GitHub issue and pull-request threads with users' own code: Pensieve A3C, Mahjong AI, transformer beam
# search, SB3 SAC, BentoML, sub-sentence encoder, imagen-pytorch, MADDPG; 8 broken + 6 correct, fewer than asked:
# most threads were already used): 4/8 and 2 false alarms when it arrived (engine 9fdbcbd: one a true cuda-only
# hazard of the correct script, confirmed on emulated CUDA and then fixed in both scripts; the other a
# `kwargs.setdefault("weights_only", False)` the engine did not read); 5/8 and 0 after reading it (README)
FORTY_THIRD = score(Path(__file__).resolve().parents[1] / "realworld43")


def test_forty_third_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FORTY_THIRD["broken"] >= 8 and FORTY_THIRD["correct"] >= 6
    assert FORTY_THIRD["false_alarms"] == []
    hits, total = FORTY_THIRD["root_hits"], FORTY_THIRD["broken"]
    assert hits / total >= 0.6, f"{hits}/{total}: " + "\n".join(FORTY_THIRD["misses"])  # type: ignore[operator, arg-type]


# Set 44 (repository code before a fixing pull request: AnomalyDetectionCVPR2018, LatticeLSTM, deepmatcher,
# chatterbox, nnue-pytorch, open-universe, darts, mlcast, pytorch/examples' ImageNet; 10 broken + 6 correct):
# 4/10 and 0 false alarms when it arrived (engine 027ea36)
FORTY_FOURTH = score(Path(__file__).resolve().parents[1] / "realworld44")


def test_forty_fourth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FORTY_FOURTH["broken"] >= 10 and FORTY_FOURTH["correct"] >= 6
    assert FORTY_FOURTH["false_alarms"] == []
    hits, total = FORTY_FOURTH["root_hits"], FORTY_FOURTH["broken"]
    assert hits / total >= 0.4, f"{hits}/{total}: " + "\n".join(FORTY_FOURTH["misses"])  # type: ignore[operator, arg-type]


# Set 45 (half precision and default-dtype topics: pytorch-yolo-v3, COLD-Attack, Husformer, DreamPose; 4 broken +
# 3 correct, far fewer than asked: nearly every public thread on these topics was already used): 0/4 and 2 false
# alarms when it arrived (engine ecfe35a; both true: the deprecated set_default_tensor_type, which torch itself
# warns about, in the correct script, which now uses today's calls)
FORTY_FIFTH = score(Path(__file__).resolve().parents[1] / "realworld45")


def test_forty_fifth_set_has_no_false_alarm() -> None:
    assert FORTY_FIFTH["broken"] >= 4 and FORTY_FIFTH["correct"] >= 3
    assert FORTY_FIFTH["false_alarms"] == []
    assert FORTY_FIFTH["any_line_hits"] >= 2, "\n".join(FORTY_FIFTH["misses"])  # type: ignore[operator, arg-type]


# Set 46 (pandas/tabular, device and checkpoint topics: fastai course22, segmentation_models.pytorch, sam-hq,
# MobileFaceNet, the PyTorch quickstart; 5 broken + 4 correct): 1/5 root, 2/5 any line, 0 false alarms when it
# arrived (engine 3402074); 2/5 after the object-array and Dataset-item changes its misses led to
FORTY_SIXTH = score(Path(__file__).resolve().parents[1] / "realworld46")


def test_forty_sixth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FORTY_SIXTH["broken"] >= 5 and FORTY_SIXTH["correct"] >= 4
    assert FORTY_SIXTH["false_alarms"] == []
    hits, total = FORTY_SIXTH["root_hits"], FORTY_SIXTH["broken"]
    assert hits / total >= 0.4, f"{hits}/{total}: " + "\n".join(FORTY_SIXTH["misses"])  # type: ignore[operator, arg-type]


# Set 47 (RL replay buffers, tabular time series with scikit-learn scalers, an inference demo's checkpoint load:
# minimalRL DDPG, InceptionTime, mmfashion; 3 broken + 3 correct): 1/3 root, 1/3 any line, 0 false alarms when it
# arrived (engine e1a2938); 3/3 after the NumPy-scalar, deque and Sequential-stage changes its misses led to
FORTY_SEVENTH = score(Path(__file__).resolve().parents[1] / "realworld47")


def test_forty_seventh_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FORTY_SEVENTH["broken"] >= 3 and FORTY_SEVENTH["correct"] >= 3
    assert FORTY_SEVENTH["false_alarms"] == []
    hits, total = FORTY_SEVENTH["root_hits"], FORTY_SEVENTH["broken"]
    assert hits / total >= 0.66, f"{hits}/{total}: " + "\n".join(FORTY_SEVENTH["misses"])  # type: ignore[operator, arg-type]


# Set 48 (Stack Overflow-style reports rebuilt as scripts: an array-API ridge regression, NumPy features, a resume
# that loads optimizer state before moving the model, a GPU optimizer state loaded on a CPU; 4 broken + 4 correct):
# 3/4 root, 0 false alarms when it arrived (engine 87be6b1); 4/4 after the changes its miss led to
FORTY_EIGHTH = score(Path(__file__).resolve().parents[1] / "realworld48")


def test_forty_eighth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FORTY_EIGHTH["broken"] >= 4 and FORTY_EIGHTH["correct"] >= 4
    assert FORTY_EIGHTH["false_alarms"] == []
    hits, total = FORTY_EIGHTH["root_hits"], FORTY_EIGHTH["broken"]
    assert hits / total >= 0.75, f"{hits}/{total}: " + "\n".join(FORTY_EIGHTH["misses"])  # type: ignore[operator, arg-type]


# Set 49 (dgl MoNet coordinates, litgpt's EmptyInitOnDevice float16 adapter with a GradScaler, torch-sim's
# float32 accumulator taking float64 power, a meta-device Llama's rotary buffer, a quantized model fed floats,
# captum's Titanic object array; 6 broken + 6 correct): 0/6 root, 1/6 any line, 1 false alarm when it arrived
# (engine a8a3cdc); 3/6 root, 4/6 any line, 0 false alarms after the changes it led to
FORTY_NINTH = score(Path(__file__).resolve().parents[1] / "realworld49")


def test_forty_ninth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FORTY_NINTH["broken"] >= 6 and FORTY_NINTH["correct"] >= 6
    assert FORTY_NINTH["false_alarms"] == []
    hits, total = FORTY_NINTH["root_hits"], FORTY_NINTH["broken"]
    assert hits / total >= 0.5, f"{hits}/{total}: " + "\n".join(FORTY_NINTH["misses"])  # type: ignore[operator, arg-type]


# Set 50 (EMA lerp toward bf16 weights, mixup lerp in fp16, a float16 EMA whose updates round away, histc of int
# expert ids, a float32 metric buffer, float16 Cholesky; 6 broken + 6 correct): 0/6 root, 0/6 any line, 0 false
# alarms when it arrived (engine 7915347); 1/6 root, 2/6 any line after the changes it led to
FIFTIETH = score(Path(__file__).resolve().parents[1] / "realworld50")


def test_fiftieth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTIETH["broken"] >= 6 and FIFTIETH["correct"] >= 6
    assert FIFTIETH["false_alarms"] == []
    hits, total = FIFTIETH["root_hits"], FIFTIETH["broken"]
    assert hits / total >= 0.16, f"{hits}/{total}: " + "\n".join(FIFTIETH["misses"])  # type: ignore[operator, arg-type]


# Set 51 (errors of operations other than forward and loss: a long key_padding_mask, mean() of int accuracies,
# randn_like of long ids, 1 - bool mask, masked_select with a long mask, argmax of a bool row; 6 + 6): 0/6 root,
# 1/6 any line, 1 false alarm when it arrived (engine 044043b); that alarm was true: the helper's re-typed
# bert4torch model made `torch.arange` on the CPU for a CUDA embedding, fixed in at05/at_c05 (see its README)
FIFTY_FIRST = score(Path(__file__).resolve().parents[1] / "realworld51")


def test_fifty_first_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTY_FIRST["broken"] >= 6 and FIFTY_FIRST["correct"] >= 6
    assert FIFTY_FIRST["false_alarms"] == []
    hits, total = FIFTY_FIRST["root_hits"], FIFTY_FIRST["broken"]
    assert hits / total >= 0.8, f"{hits}/{total}: " + "\n".join(FIFTY_FIRST["misses"])  # type: ignore[operator, arg-type]


# Set 52 (data pipeline and checkpoints: float64 .npy CT slices, big-endian FITS columns, a PosixPath in a
# features file, float32 product ids, a uint8 mask scaled by ToTensor, a GroupNormalizer in hparams; 6 + 6):
# 1/6 root, 2/6 any line, 0 false alarms when it arrived (engine 044043b)
FIFTY_SECOND = score(Path(__file__).resolve().parents[1] / "realworld52")


def test_fifty_second_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTY_SECOND["broken"] >= 6 and FIFTY_SECOND["correct"] >= 6
    assert FIFTY_SECOND["false_alarms"] == []
    hits, total = FIFTY_SECOND["root_hits"], FIFTY_SECOND["broken"]
    assert hits / total >= 0.16, f"{hits}/{total}: " + "\n".join(FIFTY_SECOND["misses"])  # type: ignore[operator, arg-type]


# Set 53 (devices: sLSTM states kept as plain attributes, a meta-initialised buffer left by from_pretrained, a
# GPU-saved Pyro optimizer state resumed on a CPU, timm's ModelEmaV3 on the CPU lerping CUDA weights, dinov2's
# linspace .item() under the meta device, an E2VID GPU checkpoint on a CPU; 6 + 6): 3/6 root, 5/6 any line,
# 1 false alarm when it arrived (engine 5a10bba); 4/6, 5/6, 0 after
FIFTY_THIRD = score(Path(__file__).resolve().parents[1] / "realworld53")


def test_fifty_third_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTY_THIRD["broken"] >= 6 and FIFTY_THIRD["correct"] >= 6
    assert FIFTY_THIRD["false_alarms"] == []
    hits, total = FIFTY_THIRD["root_hits"], FIFTY_THIRD["broken"]
    assert hits / total >= 0.66, f"{hits}/{total}: " + "\n".join(FIFTY_THIRD["misses"])  # type: ignore[operator, arg-type]


# Set 54 (float64 data by less usual paths: a NumPy reward in a Rainbow projection, an int64 2-D positional
# encoding, scikit-learn class weights as a list, a float64 latitude constant stacked by a collate_fn, rad2deg robot
# state, float64 solar forcing from an .npz; 6 + 6): 0/6 root, 0/6 any line, 0 false alarms when it arrived
# (engine 5a10bba)
FIFTY_FOURTH = score(Path(__file__).resolve().parents[1] / "realworld54")


def test_fifty_fourth_set_has_no_false_alarm() -> None:
    assert FIFTY_FOURTH["broken"] >= 6 and FIFTY_FOURTH["correct"] >= 6
    assert FIFTY_FOURTH["false_alarms"] == []


# Set 56 (checkpoints and defaults: transformers' RNG state with NumPy arrays, a DictConfig in Lightning hparams,
# a whole WideDeep model saved, a `--device` default of "cuda" for map_location, a CUDA-saved export on a login
# node, deepmd-gnn's get_model leaking a float64 default; 6 + 6): 5/6 root, 5/6 any line, 2 false alarms when it
# arrived (engine fada302); 5/6, 5/6, 0 after
FIFTY_SIXTH = score(Path(__file__).resolve().parents[1] / "realworld56")


def test_fifty_sixth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTY_SIXTH["broken"] >= 6 and FIFTY_SIXTH["correct"] >= 6
    assert FIFTY_SIXTH["false_alarms"] == []
    hits, total = FIFTY_SIXTH["root_hits"], FIFTY_SIXTH["broken"]
    assert hits / total >= 0.8, f"{hits}/{total}: " + "\n".join(FIFTY_SIXTH["misses"])  # type: ignore[operator, arg-type]


# Set 55 (mixed precision: cellpose's bfloat16 net under AdamW, PARSeq .half() with a GradScaler, ParlAI's
# NEAR_INF mask in fp16, TinyLlama SFT in half with AdamW, a float32 readout on a bfloat16 cellpose net, PEFT
# modules_to_save in fp16 with a GradScaler; 6 + 6): 4/6 root, 4/6 any line, 1 false alarm when it arrived (engine
# fada302); 4/6, 4/6, 0 after
FIFTY_FIFTH = score(Path(__file__).resolve().parents[1] / "realworld55")


def test_fifty_fifth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTY_FIFTH["broken"] >= 6 and FIFTY_FIFTH["correct"] >= 6
    assert FIFTY_FIFTH["false_alarms"] == []
    hits, total = FIFTY_FIFTH["root_hits"], FIFTY_FIFTH["broken"]
    assert hits / total >= 0.66, f"{hits}/{total}: " + "\n".join(FIFTY_FIFTH["misses"])  # type: ignore[operator, arg-type]


# Set 57 (data pipelines: setfit's collate `.long()` into a BCE head and into CrossEntropy with multi-hot rows,
# xares' int32 labels, ChemBERTa's float64 regression labels, pytorch_toolbox's TrainLoop casting every target
# to long, tsai's in-place integer X; 6 + 6): 1/6 root, 1/6 any line, 1 false alarm when it arrived (engine
# df388f4); 2/6, 2/6, 0 after
FIFTY_SEVENTH = score(Path(__file__).resolve().parents[1] / "realworld57")


def test_fifty_seventh_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTY_SEVENTH["broken"] >= 6 and FIFTY_SEVENTH["correct"] >= 6
    assert FIFTY_SEVENTH["false_alarms"] == []
    hits, total = FIFTY_SEVENTH["root_hits"], FIFTY_SEVENTH["broken"]
    assert hits / total >= 0.33, f"{hits}/{total}: " + "\n".join(FIFTY_SEVENTH["misses"])  # type: ignore[operator, arg-type]


# Set 58 (preprocessing that changes dtypes: NVTabular's float64 Normalize, tsai's add_datepart sliding windows of
# object arrays and integer df2Xy counts, Titanic get_dummies bools in an object array, skorch's int32 targets,
# tiktorch's float64 normalisation; 6 + 6): 1/6 root, 1/6 any line, 0 false alarms when it arrived (engine bfdaae4)
FIFTY_EIGHTH = score(Path(__file__).resolve().parents[1] / "realworld58")


def test_fifty_eighth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTY_EIGHTH["broken"] >= 6 and FIFTY_EIGHTH["correct"] >= 6
    assert FIFTY_EIGHTH["false_alarms"] == []
    hits, total = FIFTY_EIGHTH["root_hits"], FIFTY_EIGHTH["broken"]
    assert hits / total >= 0.16, f"{hits}/{total}: " + "\n".join(FIFTY_EIGHTH["misses"])  # type: ignore[operator, arg-type]


# Set 59 (device hazards in model and training code, the meta device standing in for CUDA: graphnet's one-hot
# target made on the CPU, torchaudio's TimeStretch phase_advance as a plain attribute, off-policy MADDPG's Q heads in
# a Python list, class-balanced loss weights made on the CPU, PyPOTS' GP-VAE prior built on the CPU, hippynn's
# Adagrad state made before the move; 6 + 6): 0/6 root, 0/6 any line, 0 false alarms when it arrived (engine
# ce806d7); 1/6, 1/6, 0 after session 22; 5/6, 5/6, 0 after session 23 (a plain attribute not moved, a layer in
# a Python list, meta predictions against CPU targets, Adagrad's state made in its constructor)
FIFTY_NINTH = score(Path(__file__).resolve().parents[1] / "realworld59")


def test_fifty_ninth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert FIFTY_NINTH["broken"] >= 6 and FIFTY_NINTH["correct"] >= 6
    assert FIFTY_NINTH["false_alarms"] == []
    hits, total = FIFTY_NINTH["root_hits"], FIFTY_NINTH["broken"]
    assert hits / total >= 0.8, f"{hits}/{total}: " + "\n".join(FIFTY_NINTH["misses"])  # type: ignore[operator, arg-type]


# Set 60 (target and loss hazards in users' own loss and metric code: SO-Net's IoU of summed bool masks, ultralytics'
# uint8 mask matmul, theseus' focal loss one-hot of Mixup targets, trojanzoo's float64 class weights, DeNA YOLOv3's
# `1 - mask` of a bool mask, OTX's one-hot of an empty label list; 6 + 6): 0/6 root, 0/6 any line, 0 false alarms
# when it arrived (engine f924bea); 4/6, 4/6, 0 after
SIXTIETH = score(Path(__file__).resolve().parents[1] / "realworld60")


def test_sixtieth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTIETH["broken"] >= 6 and SIXTIETH["correct"] >= 6
    assert SIXTIETH["false_alarms"] == []
    hits, total = SIXTIETH["root_hits"], SIXTIETH["broken"]
    assert hits / total >= 0.66, f"{hits}/{total}: " + "\n".join(SIXTIETH["misses"])  # type: ignore[operator, arg-type]


# Set 61 (precision hazards: glue-factory's fp16 autocast scatter into float32, speculators' bf16 norms that never move,
# MiniGPT-4's and BLIVA's fp16 weights unscaled by GradScaler, ACmix's float32 position grid into a half model,
# AnimateDiff's half output put into a float32 buffer; 6 + 6): 1/6 root, 1/6 any line, 0 false alarms when it arrived
# (engine 80077e4; the same with f924bea); 2/6, 2/6, 0 after (the blocks of an nn.Sequential run their forwards)
SIXTY_FIRST = score(Path(__file__).resolve().parents[1] / "realworld61")


def test_sixty_first_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTY_FIRST["broken"] >= 6 and SIXTY_FIRST["correct"] >= 6
    assert SIXTY_FIRST["false_alarms"] == []
    hits, total = SIXTY_FIRST["root_hits"], SIXTY_FIRST["broken"]
    assert hits / total >= 0.33, f"{hits}/{total}: " + "\n".join(SIXTY_FIRST["misses"])  # type: ignore[operator, arg-type]


# Set 62 (index and id hazards: GraphSAGE's float edge_index, SASRec's float padding mask, open-instruct's uint16
# token ids, UniLM's `torch.div` back pointers, uint8 item ids read as a mask, networkx graphs with no edges; 6 + 6):
# 0/6 root, 0/6 any line, 0 false alarms when it arrived (engine 80077e4; the same with f924bea); 1/6, 1/6, 0 after
SIXTY_SECOND = score(Path(__file__).resolve().parents[1] / "realworld62")


def test_sixty_second_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTY_SECOND["broken"] >= 6 and SIXTY_SECOND["correct"] >= 6
    assert SIXTY_SECOND["false_alarms"] == []
    hits, total = SIXTY_SECOND["root_hits"], SIXTY_SECOND["broken"]
    assert hits / total >= 0.16, f"{hits}/{total}: " + "\n".join(SIXTY_SECOND["misses"])  # type: ignore[operator, arg-type]


# Set 63 (checkpoints and state across runs: YOLOv5's FP16 last.pt on a CPU detect, a TorchScript WLS with float64
# weights, TensorRT-Edge-LLM's fp32 norm set into an fp16 model, HandyRL's GPU model pickled to a CPU worker,
# speculators' bf16 optimizer state, YOLOv5's W&B resume without map_location; 6 + 6): 1/6 root, 1/6 any line,
# 0 false alarms when it arrived (engine c577bec and 7450805); unchanged after
SIXTY_THIRD = score(Path(__file__).resolve().parents[1] / "realworld63")


def test_sixty_third_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTY_THIRD["broken"] >= 6 and SIXTY_THIRD["correct"] >= 6
    assert SIXTY_THIRD["false_alarms"] == []
    hits, total = SIXTY_THIRD["root_hits"], SIXTY_THIRD["broken"]
    assert hits / total >= 0.16, f"{hits}/{total}: " + "\n".join(SIXTY_THIRD["misses"])  # type: ignore[operator, arg-type]


# Set 64 (tabular, time-series and scientific pipelines: a uint8 .npz dense matrix, torchdde's default-dtype `ys`
# buffer under a float64 neural ODE, DeepXDE's float64 Chebyshev features, TabSurvey's object array, float64 sliding
# window targets into HuberLoss, d2l's get_dummies bools; 6 + 6): 0/6 root, 1/6 any line, 0 false alarms when it
# arrived (engine c577bec and 7450805); 1/6, 1/6, 0 after (a buffer filled with the model's dtype; closures)
SIXTY_FOURTH = score(Path(__file__).resolve().parents[1] / "realworld64")


def test_sixty_fourth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTY_FOURTH["broken"] >= 6 and SIXTY_FOURTH["correct"] >= 6
    assert SIXTY_FOURTH["false_alarms"] == []
    hits, total = SIXTY_FOURTH["root_hits"], SIXTY_FOURTH["broken"]
    assert hits / total >= 0.16, f"{hits}/{total}: " + "\n".join(SIXTY_FOURTH["misses"])  # type: ignore[operator, arg-type]


# Set 65 (device placement in the data path: EasyTPP's CPU layer mask, d2l's GRU state on the default device, VGNAE's
# `data.to('cuda')`, a positional table `.cuda()` in forward, nanoGPT's `device = 'cuda'` default, DrRepair's
# `torch.cuda.FloatTensor`; 6 + 6): 0/6 root, 0/6 any line, 0 false alarms when it arrived (engine c577bec and 8c5a961);
# 1/6, 1/6, 0 after (a hard-coded `.cuda()` combined with a tensor on the device chosen by availability)
SIXTY_FIFTH = score(Path(__file__).resolve().parents[1] / "realworld65")


def test_sixty_fifth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTY_FIFTH["broken"] >= 6 and SIXTY_FIFTH["correct"] >= 6
    assert SIXTY_FIFTH["false_alarms"] == []
    hits, total = SIXTY_FIFTH["root_hits"], SIXTY_FIFTH["broken"]
    assert hits / total >= 0.16, f"{hits}/{total}: " + "\n".join(SIXTY_FIFTH["misses"])  # type: ignore[operator, arg-type]


# Set 66 (NumPy and Python numbers meeting torch: a scheduler's np.tile learning rates and a cosine momentum pickled
# in checkpoints, NumPy float64 class weights, int64 category codes as a BCE target, tensor labels in a NumPy
# accuracy, a float64 rotation matrix; 6 + 6): 1/6 root, 1/6 any line, 0 false alarms when it arrived (engine c577bec
# and 62fdb89); 2/6, 2/6, 0 after (np.sum of a mask is int64; F.cross_entropy's weight passed third)
SIXTY_SIXTH = score(Path(__file__).resolve().parents[1] / "realworld66")


def test_sixty_sixth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTY_SIXTH["broken"] >= 6 and SIXTY_SIXTH["correct"] >= 6
    assert SIXTY_SIXTH["false_alarms"] == []
    hits, total = SIXTY_SIXTH["root_hits"], SIXTY_SIXTH["broken"]
    assert hits / total >= 0.33, f"{hits}/{total}: " + "\n".join(SIXTY_SIXTH["misses"])  # type: ignore[operator, arg-type]


# Set 67 (hand-written image and audio preprocessing: int16 PCM, complex STFTs, NumPy noise, uint8 masks and images;
# 6 + 6): 0/6 root, 0/6 any line, 0 false alarms when it arrived (engine 23a6e00 and 95cd03c); 0/6, 1/6, 0 after
# (espnet's float64 waveform in speechbrain's keyword conv1d, reported where it becomes a tensor)
SIXTY_SEVENTH = score(Path(__file__).resolve().parents[1] / "realworld67")


def test_sixty_seventh_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTY_SEVENTH["broken"] >= 6 and SIXTY_SEVENTH["correct"] >= 6
    assert SIXTY_SEVENTH["false_alarms"] == []
    hits, total = SIXTY_SEVENTH["any_line_hits"], SIXTY_SEVENTH["broken"]
    assert hits / total >= 0.16, f"{hits}/{total}: " + "\n".join(SIXTY_SEVENTH["misses"])  # type: ignore[operator, arg-type]


# Set 68 (dtype and device chosen by options, defaults and saved configs; 6 + 6): 0/6 root, 2/6 any line, 1 false
# alarm when it arrived (a real GPU failure of the re-typed correct script, corrected as its README says); 1/6, 2/6,
# 0 after (`self.__dict__.update(locals())` sets the parameters as attributes)
SIXTY_EIGHTH = score(Path(__file__).resolve().parents[1] / "realworld68")


def test_sixty_eighth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTY_EIGHTH["broken"] >= 6 and SIXTY_EIGHTH["correct"] >= 6
    assert SIXTY_EIGHTH["false_alarms"] == []
    hits, total = SIXTY_EIGHTH["root_hits"], SIXTY_EIGHTH["broken"]
    assert hits / total >= 0.16, f"{hits}/{total}: " + "\n".join(SIXTY_EIGHTH["misses"])  # type: ignore[operator, arg-type]


# Set 69 (tests/realworld69, written by a helper who never read the engine; generative models written from scratch,
# 6 + 6): 2/6 root, 2/6 any line, 0 false alarms when it arrived (engine d0b5174 and the day's engine); 3/6, 3/6, 0
# after (an EMA's in-place `mul_` over a state_dict that holds BatchNorm's int64 counter)
SIXTY_NINTH = score(Path(__file__).resolve().parents[1] / "realworld69")


def test_sixty_ninth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SIXTY_NINTH["broken"] >= 6 and SIXTY_NINTH["correct"] >= 6
    assert SIXTY_NINTH["false_alarms"] == []
    hits, total = SIXTY_NINTH["root_hits"], SIXTY_NINTH["broken"]
    assert hits / total >= 0.5, f"{hits}/{total}: " + "\n".join(SIXTY_NINTH["misses"])  # type: ignore[operator, arg-type]


# Set 70 (tests/realworld70, written by a helper who never read the engine; layers, parameters and weights written by
# hand, 6 + 6): 2/6 root, 2/6 any line, 0 false alarms when it arrived (engine d0b5174 and the day's engine); 4/6, 4/6,
# 0 after (an integer `nn.Parameter`; an upcast in a bfloat16 model's forward, reported where it is written)
SEVENTIETH = score(Path(__file__).resolve().parents[1] / "realworld70")


def test_seventieth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTIETH["broken"] >= 6 and SEVENTIETH["correct"] >= 6
    assert SEVENTIETH["false_alarms"] == []
    hits, total = SEVENTIETH["root_hits"], SEVENTIETH["broken"]
    assert hits / total >= 0.66, f"{hits}/{total}: " + "\n".join(SEVENTIETH["misses"])  # type: ignore[operator, arg-type]


# Set 71 (tests/realworld71, written by a helper who never read the engine; inference, evaluation and export
# scripts, 6 + 6): 1/6 root, 2/6 any line, 0 false alarms when it arrived (engine d0b5174 and the day's engine); the
# same after
SEVENTY_FIRST = score(Path(__file__).resolve().parents[1] / "realworld71")


def test_seventy_first_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTY_FIRST["broken"] >= 6 and SEVENTY_FIRST["correct"] >= 6
    assert SEVENTY_FIRST["false_alarms"] == []
    hits, total = SEVENTY_FIRST["any_line_hits"], SEVENTY_FIRST["broken"]
    assert hits / total >= 0.33, f"{hits}/{total}: " + "\n".join(SEVENTY_FIRST["misses"])  # type: ignore[operator, arg-type]


# Set 72 (tests/realworld72, written by a helper who never read the engine; models with several inputs or outputs,
# 5 + 5): 3/5 root, 3/5 any line, 0 false alarms when it arrived (engine d0b5174 and the day's engine); the same after
SEVENTY_SECOND = score(Path(__file__).resolve().parents[1] / "realworld72")


def test_seventy_second_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTY_SECOND["broken"] >= 5 and SEVENTY_SECOND["correct"] >= 5
    assert SEVENTY_SECOND["false_alarms"] == []
    hits, total = SEVENTY_SECOND["root_hits"], SEVENTY_SECOND["broken"]
    assert hits / total >= 0.6, f"{hits}/{total}: " + "\n".join(SEVENTY_SECOND["misses"])  # type: ignore[operator, arg-type]


# Set 73 (tests/realworld73, written by a helper who never read the engine; reinforcement learning code, 6 + 6): 0/6
# root, 0/6 any line, 0 false alarms when it arrived (engine d0b5174 and 59d79f2); 3/6, 3/6, 0 after (numbers
# written through uint8 masks)
SEVENTY_THIRD = score(Path(__file__).resolve().parents[1] / "realworld73")


def test_seventy_third_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTY_THIRD["broken"] >= 6 and SEVENTY_THIRD["correct"] >= 6
    assert SEVENTY_THIRD["false_alarms"] == []
    hits, total = SEVENTY_THIRD["root_hits"], SEVENTY_THIRD["broken"]
    assert hits / total >= 0.5, f"{hits}/{total}: " + "\n".join(SEVENTY_THIRD["misses"])  # type: ignore[operator, arg-type]


# Set 74 (tests/realworld74, written by a helper who never read the engine; sequence models written by hand, 6 + 6):
# 3/6 root, 5/6 any line, 1 false alarm when it arrived (engine d0b5174; 4/6 with 59d79f2); 4/6, 5/6, 0 after (a
# forward replaced on the instance, as apex's amp.initialize does)
SEVENTY_FOURTH = score(Path(__file__).resolve().parents[1] / "realworld74")


def test_seventy_fourth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTY_FOURTH["broken"] >= 6 and SEVENTY_FOURTH["correct"] >= 6
    assert SEVENTY_FOURTH["false_alarms"] == []
    hits, total = SEVENTY_FOURTH["root_hits"], SEVENTY_FOURTH["broken"]
    assert hits / total >= 0.66, f"{hits}/{total}: " + "\n".join(SEVENTY_FOURTH["misses"])  # type: ignore[operator, arg-type]


# Set 75 (tests/realworld75, written by a helper who never read the engine; augmentation, sampling and batch
# assembly, 6 + 6): 0/6 root, 0/6 any line, 0 false alarms when it arrived (engine d0b5174 and d61e270); 1/6, 1/6, 0
# after (integer class weights in a loss); 2/6, 2/6, 0 in session 27 (a random-gated augmentation is followed)
SEVENTY_FIFTH = score(Path(__file__).resolve().parents[1] / "realworld75")


def test_seventy_fifth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTY_FIFTH["broken"] >= 6 and SEVENTY_FIFTH["correct"] >= 6
    assert SEVENTY_FIFTH["false_alarms"] == []
    hits, total = SEVENTY_FIFTH["root_hits"], SEVENTY_FIFTH["broken"]
    assert hits / total >= 0.33, f"{hits}/{total}: " + "\n".join(SEVENTY_FIFTH["misses"])  # type: ignore[operator, arg-type]


# Set 76 (tests/realworld76, written by a helper who never read the engine; transfer learning and fine-tuning by
# hand, 6 + 6): 1/6 root, 3/6 any line, 1 false alarm when it arrived (engine 2f3b692); 1/6, 3/6, 0 after (a
# `torch.load` in `except TypeError:` after one with `weights_only=False` runs only with an older torch); 3/6
# root in the next session (1a17df6 + the head rule: a layer created with the default dtype after the model was
# cast, as timm's `reset_classifier` does, is reported at its creation)
SEVENTY_SIXTH = score(Path(__file__).resolve().parents[1] / "realworld76")


def test_seventy_sixth_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTY_SIXTH["broken"] >= 6 and SEVENTY_SIXTH["correct"] >= 6
    assert SEVENTY_SIXTH["false_alarms"] == []
    hits, total = SEVENTY_SIXTH["root_hits"], SEVENTY_SIXTH["broken"]
    assert hits / total >= 0.5, f"{hits}/{total}: " + "\n".join(SEVENTY_SIXTH["misses"])  # type: ignore[operator, arg-type]


# Set 77 (tests/realworld77, scientific and numerical ML, 6 + 6): 1/6 root, 2/6 any line, 0 false alarms when it
# arrived (2f3b692); 2/6, 3/6, 0 after (`np.fft.fftfreq` gives float64, `torch.pinverse` keeps its input's dtype)
SEVENTY_SEVENTH = score(Path(__file__).resolve().parents[1] / "realworld77")


def test_seventy_seventh_set_has_no_false_alarm_and_keeps_its_recall() -> None:
    assert SEVENTY_SEVENTH["broken"] >= 6 and SEVENTY_SEVENTH["correct"] >= 6
    assert SEVENTY_SEVENTH["false_alarms"] == []
    hits, total = SEVENTY_SEVENTH["root_hits"], SEVENTY_SEVENTH["broken"]
    assert hits / total >= 0.33, f"{hits}/{total}: " + "\n".join(SEVENTY_SEVENTH["misses"])  # type: ignore[operator, arg-type]


# Set 78 (tests/realworld78, signal processing and complex numbers, 6 + 6): 0/6 root, 0/6 any line, 0 false
# alarms when it arrived (2f3b692) and after: complex STFT pipelines and complex-valued layers are not followed
SEVENTY_EIGHTH = score(Path(__file__).resolve().parents[1] / "realworld78")


def test_seventy_eighth_set_has_no_false_alarm() -> None:
    assert SEVENTY_EIGHTH["broken"] >= 6 and SEVENTY_EIGHTH["correct"] >= 6
    assert SEVENTY_EIGHTH["false_alarms"] == []


# Set 79 (tests/realworld79, training utilities written by hand, 6 + 6): 0/6 root, 1/6 any line, 2 false alarms
# when it arrived (2f3b692); 0/6, 0/6, 0 after (`requires_grad_(False)` freezes the parts a model holds then, not
# a LoRA layer attached later; an optimizer over a model whose every known part is frozen trains parts not followed)
SEVENTY_NINTH = score(Path(__file__).resolve().parents[1] / "realworld79")


def test_seventy_ninth_set_has_no_false_alarm() -> None:
    assert SEVENTY_NINTH["broken"] >= 6 and SEVENTY_NINTH["correct"] >= 6
    assert SEVENTY_NINTH["false_alarms"] == []


# Sets 80-83 (written by helpers who never read the engine, scored on arrival with 05f8058, the session's start):
# 80 distributed training on the CPU: 0/6 root, 0/6 any line, 0 false alarms -> 1/6, 2/6, 0 (`mp.spawn` workers do
# not inherit a default dtype set under `__main__`; builtin `sum` of int64 counts); 81 scikit-learn meets PyTorch:
# 1/6, 1/6, 0 -> 3/6, 3/6, 0 (sklearn's load_* toy data sets; integer scores refused by cross_entropy); 82 attention
# masks in hand-written transformers: 3/6, 3/6, 0 -> 5/6, 5/6, 0 (`.to(None)` changes nothing, a collate instance
# with `__call__` runs, `pad_sequence` keeps its sequences' dtype); 83 data read from files: 2/6, 3/6, 0 -> 3/6, 4/6,
# 0 (`torch.unique(..., return_inverse=True)` gives int64 indices); next session 4/6 (a table of Python ints looked up
# by a name read from a file, made float by the legacy `torch.Tensor`)
EIGHTIETH = score(Path(__file__).resolve().parents[1] / "realworld80")
EIGHTY_FIRST = score(Path(__file__).resolve().parents[1] / "realworld81")
EIGHTY_SECOND = score(Path(__file__).resolve().parents[1] / "realworld82")
EIGHTY_THIRD = score(Path(__file__).resolve().parents[1] / "realworld83")


@pytest.mark.parametrize(("result", "floor"), [(EIGHTIETH, 0.16), (EIGHTY_FIRST, 0.5), (EIGHTY_SECOND, 0.83), (EIGHTY_THIRD, 0.66)], ids=["80", "81", "82", "83"])
def test_sets_80_to_83_have_no_false_alarm_and_keep_their_recall(result: dict[str, object], floor: float) -> None:
    assert result["broken"] >= 6 and result["correct"] >= 6  # type: ignore[operator]
    assert result["false_alarms"] == []
    hits, total = result["root_hits"], result["broken"]
    assert hits / total >= floor, f"{hits}/{total}: " + "\n".join(result["misses"])  # type: ignore[operator, arg-type]


# Sets 84-88 (written by helpers who never read the engine, scored on arrival with 70d2122, the session's start):
# 84 the everyday case (user-reported bugs of any domain): 3/6 root, 4/6 any line, 1 false alarm -> 3/6, 4/6, 1;
# 85 image classification and segmentation: 0/5, 3/5, 3 false alarms -> 1/5, 2/5, 0 (a `torch.save`d list of CPU
# tensors read back by the run's `torch.load`; a uint8 mask's root is its conversion to torch; one false alarm was a
# CUDA-only hazard of the re-typing, fixed in the set); 86 regression and forecasting: 2/6, 4/6, 0 -> 2/6, 4/6, 0.
# Set 84's false alarm is a judgement the rule makes on purpose: a checkpoint saved by one method and resumed by a
# sibling (`sbs.save_checkpoint(p)`, then `new_sbs.load_checkpoint(p)`) is read as two runs that may be on two
# machines, as set 3's f09/e08 (labelled broken) need; set 84 labels the same shape correct.
EIGHTY_FOURTH = score(Path(__file__).resolve().parents[1] / "realworld84")
EIGHTY_FIFTH = score(Path(__file__).resolve().parents[1] / "realworld85")
EIGHTY_SIXTH = score(Path(__file__).resolve().parents[1] / "realworld86")
# 87 text and token models, 88 the everyday case again (scored on arrival with 58e284c, this session's commit when
# their helpers started): 87 2/5 root, 2/5 any line, 1 false alarm -> 3/5, 3/5, 0 (a list of Python ints padded by
# hand, `[1] * n + [0] * pad`, is a list of ints); 88 3/5, 4/5, 1 -> 3/5, 4/5, 0 (each
# false alarm was a CUDA-only device hazard of the re-typing, fixed in the set; one pair of 87 dropped, see its README);
# next session 88 4/5, 5/5 any line (`np.interp` is float64; a `try` calling `.to()` on a NumPy array runs its `except`)
EIGHTY_SEVENTH = score(Path(__file__).resolve().parents[1] / "realworld87")
EIGHTY_EIGHTH = score(Path(__file__).resolve().parents[1] / "realworld88")
KNOWN_SET_FALSE_ALARMS = {"84": ["ca_c01_stepbystep_checkpoint_weights_only_false.py:112:DG010"]}


@pytest.mark.parametrize(
    ("name", "result", "floor"),
    [("84", EIGHTY_FOURTH, 0.5), ("85", EIGHTY_FIFTH, 0.2), ("86", EIGHTY_SIXTH, 0.33), ("87", EIGHTY_SEVENTH, 0.6), ("88", EIGHTY_EIGHTH, 0.8)],
    ids=["84", "85", "86", "87", "88"],
)
def test_sets_84_to_88_keep_their_recall_and_false_alarms(name: str, result: dict[str, object], floor: float) -> None:
    assert result["broken"] >= 5 and result["correct"] >= 5  # type: ignore[operator]
    assert result["false_alarms"] == KNOWN_SET_FALSE_ALARMS.get(name, [])
    hits, total = result["root_hits"], result["broken"]
    assert hits / total >= floor, f"{hits}/{total}: " + "\n".join(result["misses"])  # type: ignore[operator, arg-type]


# Sets 89-91 (written by helpers who never read the engine, scored on arrival with cb8a26a, the session's start):
# 89 the everyday case, third sample: 1/5 root, 1/5 any line, 0 false alarms; 90 graph neural networks and point
# clouds: 1/6, 1/6, 0; 91 object detection and keypoints: 1/6, 1/6, 0. 92 medical imaging and remote sensing and
# 93 recommendation and metric learning (scored on arrival with 134a0e4, the commit when their helpers started):
# 92 2/5, 2/5, 1 false alarm (one of the two root hits was that false DG010 at the root's line); 93 1/4, 1/4, 1 false
# alarm. 94 video and pose and 95 language-model fine-tuning (scored on arrival with eadf76f): 94 1/4, 1/4, 0;
# 95 1/5, 2/5, 0. Scores after: each set's README.
NINETIES = {n: score(Path(__file__).resolve().parents[1] / f"realworld{n}") for n in ("89", "90", "91", "92", "93", "94", "95")}
FLOORS_89_95 = {"89": 0.4, "90": 0.33, "91": 0.16, "92": 0.2, "93": 0.5, "94": 0.5, "95": 0.2}


@pytest.mark.parametrize("name", list(FLOORS_89_95))
def test_sets_89_to_95_have_no_false_alarm_and_keep_their_recall(name: str) -> None:
    result = NINETIES[name]
    assert result["broken"] >= 4 and result["correct"] >= 4  # type: ignore[operator]
    assert result["false_alarms"] == []
    hits, total = result["root_hits"], result["broken"]
    assert hits / total >= FLOORS_89_95[name], f"{hits}/{total}: " + "\n".join(result["misses"])  # type: ignore[operator, arg-type]
