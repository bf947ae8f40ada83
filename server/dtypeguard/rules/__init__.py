"""The rule catalog: one module per rule, registered here in code order."""

from __future__ import annotations

from dtypeguard.model import RuleExamples, Severity
from dtypeguard.rules import (
    dg001_default_set_after_creation,
    dg002_deprecated_set_default_tensor_type,
    dg003_cuda_default_breaks_shuffle,
    dg004_input_dtype_mismatch,
    dg005_integer_input,
    dg006_class_target_dtype,
    dg007_bce_target_dtype,
    dg008_float64_target_promotes_loss,
    dg009_device_mismatch,
    dg010_torch_load_map_location,
    dg011_torch_load_weights_only,
    dg012_adam_fp16_eps,
    dg013_adam_bf16_stall,
    dg014_gradscaler_fp16_params,
    dg015_model_cast_after_step,
    dg016_optimizer_flag_conflict,
    dg017_autocast_output_leaks,
)
from dtypeguard.rules.base import Rule

PARSE_ERROR = Rule(
    code="DG000",
    name="parse-error",
    severity=Severity.WARNING,
    summary="the file cannot be parsed, so it was not analysed",
    explanation=(
        "dtypeguard analyses only files that parse. While you type, the last finding set stays until "
        "the file parses again. A file that is not UTF-8 is reported and skipped."
    ),
    hazards=(),
    check=lambda ctx: iter(()),
    examples=RuleExamples(bad=["def f(:  # <-\n    pass\n"], good=["def f():\n    pass\n"]),
)

RULES: tuple[Rule, ...] = tuple(
    m.RULE
    for m in (
        dg001_default_set_after_creation,
        dg002_deprecated_set_default_tensor_type,
        dg003_cuda_default_breaks_shuffle,
        dg004_input_dtype_mismatch,
        dg005_integer_input,
        dg006_class_target_dtype,
        dg007_bce_target_dtype,
        dg008_float64_target_promotes_loss,
        dg009_device_mismatch,
        dg010_torch_load_map_location,
        dg011_torch_load_weights_only,
        dg012_adam_fp16_eps,
        dg013_adam_bf16_stall,
        dg014_gradscaler_fp16_params,
        dg015_model_cast_after_step,
        dg016_optimizer_flag_conflict,
        dg017_autocast_output_leaks,
    )
)
ALL_RULES: tuple[Rule, ...] = (PARSE_ERROR, *RULES)
BY_CODE: dict[str, Rule] = {r.code: r for r in ALL_RULES}
