"""DG016: optimizer flags that cannot work together or on this device (H15)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from dtypeguard.engine.events import GroupFlag, OptimizerStep
from dtypeguard.engine.values import Const, Value
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import Context, ErrorPattern, Rule


def _true(value: Value | None) -> bool:
    return isinstance(value, Const) and value.value is True


def check(ctx: Context) -> Iterator[Finding]:
    yield from _group_flags(ctx)
    for new in ctx.events.optimizers:
        opts = new.opt.options
        if _true(opts.get("fused")) and _true(opts.get("foreach")):
            error = "`fused` and `foreach` cannot be `True` together."
            flags_at = [at for key, at in new.flag_spans if key in ("fused", "foreach")]
            if flags_at:
                # `kwargs["foreach"] = True` added to options that already had `fused`: the flag
                # written last into the dict is the one that makes the conflict
                root = max(flags_at, key=lambda at: (at.line, at.col))
                foreach_at = next((at for key, at in new.flag_spans if key == "foreach"), None)
                # the caller's `foreach=True` keyword (passed on through `**kwargs`): drop it there
                keyword = foreach_at is not None and re.fullmatch(r"foreach\s*=\s*True", ctx.snippet(foreach_at)) is not None
                fixes = (
                    [FixSpec("remove_kwarg", f"Remove `foreach=True` at {foreach_at.line_ref()} (fused already batches the update)", foreach_at, True, (("name", "foreach"),))]
                    if keyword and foreach_at is not None
                    else _foreach_off(ctx, foreach_at, "fused already batches the update")
                )
                yield RULE.finding(
                    f"this sets the second of `fused=True` and `foreach=True`, which {new.opt.cls} at {new.span.line_ref()} gets through "
                    f"`**` and refuses: \"{error}\"",
                    root,
                    related=[Related.failing(new.span, error)],
                    fixes=fixes,
                )
                continue
            yield RULE.finding(
                f"{new.opt.cls}(fused=True, foreach=True) raises \"{error}\"",
                new.span,
                fixes=[FixSpec("remove_kwarg", "Remove `foreach=True` (fused already batches the update)", new.span, True, (("name", "foreach"),))],
            )
        if _true(opts.get("fused")) and _true(opts.get("differentiable")):
            yield RULE.finding(f"{new.opt.cls}(fused=True, differentiable=True) raises \"`fused` does not support `differentiable`\"", new.span)
        elif _true(opts.get("foreach")) and _true(opts.get("differentiable")) and new.opt.cls.rsplit(".", 1)[-1] in _FOREACH_NOT_DIFFERENTIABLE:
            yield RULE.finding(
                f"{new.opt.cls} gets `foreach=True` and `differentiable=True`: its first `step()` fails with \"_foreach ops don't "
                "support autograd\" (the multi-tensor update cannot be differentiated); pass `foreach=False`",
                new.span,
                fixes=_foreach_off(ctx, next((at for key, at in new.flag_spans if key == "foreach"), None) or _keyword_at(ctx, new.span, "foreach"), "a differentiable update needs the for-loop one"),
            )
        in_group = _true(new.opt.group_options.get("capturable")) and not _true(opts.get("capturable"))
        device = new.module.device if new.module is not None else new.groups_device
        if (_true(opts.get("capturable")) or in_group) and device in ("cpu", "auto"):
            where = "a parameter group sets `capturable: True`" if in_group else f"{new.opt.cls}(capturable=True)"
            on = "with CPU parameters" if device == "cpu" else "on a machine without CUDA, where this script falls back to the CPU,"
            entry = _config_entry(ctx, new.span) if not in_group else None
            if entry is not None:
                # `Optimizer(params, **spec)` with `"capturable": True` in the script's one config
                # dict that sets it: the fix goes into that dict
                written, value = entry
                yield RULE.finding(
                    f"`capturable` is set to True here and reaches {new.opt.cls} at {new.span.line_ref()}: its first `step()` {on} "
                    "fails (\"If capturable=True, params and state_steps must be on supported devices\"): capturable is for CUDA graphs",
                    written,
                    related=[Related(new.span, f"{new.opt.cls} is made here with the config's options")],
                    fixes=[_config_fix(value, device == "cpu")],
                )
                continue
            elsewhere = next((at for key, at in new.flag_spans if key == "capturable" and at.file), None) if not in_group else None
            if elsewhere is not None:
                # `**cfg.optimizer.kwargs` of a config module (`kwargs=AttrDict(lr=1e-3, capturable=True)`):
                # the fix goes into that module's entry, shown there
                yield RULE.finding(
                    f"`capturable` is set to True here and reaches {new.opt.cls} at {new.span.line_ref() if new.span.file else f'line {new.span.line} of the script'}: "
                    f"its first `step()` {on} fails (\"If capturable=True, params and state_steps must be on supported devices\"): capturable is for CUDA graphs",
                    elsewhere,
                    related=[Related(new.span, f"{new.opt.cls} is made here with the config's options")],
                )
                continue
            yield RULE.finding(
                f"{where}: {new.opt.cls}'s first `step()` {on} fails (\"If capturable=True, params and state_steps must be on "
                "supported devices\"): capturable is for CUDA graphs",
                new.span,
                fixes=_capturable_fixes(ctx, new.span, in_group, device == "cpu"),
            )


# optimizers whose `step()` asserts that a differentiable update does not use foreach (torch 2.13;
# SGD fails earlier, on the in-place update of a leaf)
_FOREACH_NOT_DIFFERENTIABLE = frozenset({"Adam", "AdamW", "RMSprop", "Adamax", "NAdam", "RAdam", "Adagrad", "Adadelta", "ASGD", "Rprop"})


def _group_flags(ctx: Context) -> Iterator[Finding]:
    """`opt.param_groups[0]["capturable"] = True` written after the optimizer was made (the
    forum workaround for "If capturable=False, state_steps should not be CUDA tensors" after a
    resume) on CPU parameters, with a step of that optimizer after it."""
    first: dict[Span, tuple[GroupFlag, OptimizerStep]] = {}  # per line that sets it (a loop over optimizers): the first step to fail
    for flag in ctx.events.group_flags:
        if flag.key != "capturable" or not _true(flag.value) or flag.module is None or flag.module.device not in ("cpu", "auto"):
            continue
        if flag.module.device == "auto" and (not ctx.events.uses_cuda_check or _under_device_test(ctx, flag.span)):
            continue  # on the GPU when there is one: the write under `if torch.cuda.is_available()` is for the GPU run
        step = next((s for s in ctx.events.steps if s.time > flag.time and s.opt.origin == flag.opt.origin), None)
        if step is not None and (flag.span not in first or step.time < first[flag.span][1].time):
            first[flag.span] = (flag, step)
    for flag, step in first.values():
        on = "with CPU parameters" if flag.module is not None and flag.module.device == "cpu" else "on a machine without CUDA (this script also runs on the CPU)"
        error = "If capturable=True, params and state_steps must be on supported devices"
        yield RULE.finding(
            f"`capturable` set to True in {flag.opt.cls}'s parameter group: its next `step()` {on} fails (\"{error}\"): capturable is "
            "for CUDA graphs (after loading a checkpoint saved on a GPU, load it with `map_location` instead)",
            flag.span,
            related=[Related.failing(step.span, error)],
            severity=Severity.WARNING if flag.module is not None and flag.module.device == "auto" else None,
        )


def _under_device_test(ctx: Context, at: Span) -> bool:
    """Whether the line sits in an `if` (or its else) whose test asks about the device or CUDA."""
    for node in ast.walk(ctx.tree) if ctx.tree is not None else ():
        if isinstance(node, ast.If) and node.lineno <= at.line <= (node.end_lineno or node.lineno):
            test = ast.unparse(node.test)
            if any(word in test for word in ("cuda", "is_available", "device", "gpu", "accelerator")):
                return True
    return False


def _keyword_at(ctx: Context, call: Span, name: str) -> Span | None:
    """The `name=` keyword written in the call at `call`, if there is one."""
    for node in ast.walk(ctx.tree) if ctx.tree is not None else ():
        if isinstance(node, ast.Call) and ctx.index.span(node) == call:
            return next((ctx.index.span(k) for k in node.keywords if k.arg == name), None)
    return None


def _foreach_off(ctx: Context, at: Span | None, why: str) -> list[FixSpec]:
    """`foreach` turned off where its value is written: the `foreach=<expr>` keyword of a call
    or the `<dict>["foreach"] = <expr>` that put it in an optimizer's options. Safe: `foreach`
    picks how the update is computed (one multi-tensor kernel or a loop), not what it computes."""
    if at is None or ctx.tree is None:
        return []
    for node in ast.walk(ctx.tree):
        keyword = isinstance(node, ast.keyword) and node.arg == "foreach" and ctx.index.span(node) == at
        written = isinstance(node, ast.Assign) and len(node.targets) == 1 and ctx.index.span(node.targets[0]) == at
        if keyword or written:
            assert isinstance(node, (ast.keyword, ast.Assign))
            value = node.value
            old = ast.get_source_segment(ctx.text, value)
            if old is None or old == "False" or "\n" in old:
                return []  # (written in a way this cannot name exactly: left to the user)
            return [FixSpec("replace_expression", f"Pass `foreach=False` at {at.line_ref()} ({why})", ctx.index.span(value), True, (("value", "False"), ("old", old)))]
    return []


def _config_entry(ctx: Context, made: Span) -> tuple[Span, Span] | None:
    """Where `capturable` is set to True when the optimizer call does not write `True` itself
    (`**spec`, `capturable=cfg.capturable`): the one place of the file that writes it, a dict
    entry `"capturable": True` or a keyword `capturable=True` of another call (a config's
    `SimpleNamespace`), and its `True`. None or several: None, and the call is reported."""
    text = "\n".join(ctx.index.line_text(n) for n in range(made.line, made.end_line + 1))
    if ctx.tree is None or re.search(r"capturable\s*=\s*True", text):
        return None
    written = list(_capturable_true(ctx.tree))
    if len(written) != 1:
        return None
    _, k, v = written[0]
    start = ctx.index.span(k)
    if (made.line, made.col) <= (start.line, start.col) <= (made.end_line, made.end_col):
        return None  # inside the call itself (`**{"capturable": True}`): the call is reported
    return Span(start.line, start.col, v.end_lineno or v.lineno, v.end_col_offset or 0), ctx.index.span(v)


def _config_fix(value: Span, cpu: bool) -> FixSpec:
    """The config's `True` becomes `False` (CPU parameters: capturable cannot work) or
    `torch.cuda.is_available()` (parameters on CUDA when there is one: unchanged on a GPU, where
    the script's CUDA graphs may need it). Only this optimizer reads that entry: it is the one
    place of the file that sets `capturable`, and it reaches this optimizer."""
    new, title = ("False", "Set capturable to False in the config (CPU parameters)") if cpu else (
        "torch.cuda.is_available()", "Set capturable in the config only when CUDA is available (the script's device then is CUDA)")
    return FixSpec("replace_expression", f"{title}: `{new}`", value, True, (("value", new), ("old", "True")))


def _capturable_true(tree: ast.Module) -> Iterator[tuple[ast.Dict | None, ast.AST, ast.expr]]:
    """Each place the file writes `capturable` as True: a dict entry `"capturable": True` (with
    its dict) or a keyword `capturable=True` (no dict)."""
    for n in ast.walk(tree):
        if isinstance(n, ast.Dict):
            for k, v in zip(n.keys, n.values, strict=True):
                if isinstance(k, ast.Constant) and k.value == "capturable" and isinstance(v, ast.Constant) and v.value is True:
                    yield n, k, v
        elif isinstance(n, ast.keyword) and n.arg == "capturable" and isinstance(n.value, ast.Constant) and n.value.value is True:
            yield None, n, n.value


def _capturable_fixes(ctx: Context, span: Span, in_group: bool, cpu: bool) -> list[FixSpec]:
    """On CPU parameters capturable cannot work: off. Where the script falls back to the CPU
    only without CUDA, capturable follows `torch.cuda.is_available()`: unchanged on a GPU, where
    the script's CUDA graphs may need it (removing it there would change behaviour)."""
    value, title = ("False", "Set capturable to False (CPU parameters)") if cpu else (
        "torch.cuda.is_available()", "Set capturable only when CUDA is available (the script's device then is CUDA)")
    if not in_group:
        fixes = [FixSpec("remove_kwarg", "Remove `capturable=True`", span, True, (("name", "capturable"),))] if cpu else [
            FixSpec("set_kwarg", f"{title}: `capturable={value}`", span, True, (("name", "capturable"), ("value", value))),
            FixSpec("remove_kwarg", "Remove `capturable=True`", span, False, (("name", "capturable"),)),
        ]
        return fixes
    groups = [v for d, _k, v in _capturable_true(ctx.tree) if d is not None
              and any(isinstance(p, ast.Constant) and p.value == "params" for p in d.keys)] if ctx.tree is not None else []
    if len(groups) != 1:
        return []  # several group dicts, or a group built another way: not guessed
    v = groups[0]
    where = Span(v.lineno, v.col_offset, v.end_lineno or v.lineno, v.end_col_offset or 0)
    return [FixSpec("replace_expression", f"{title} in the parameter group: `\"capturable\": {value}`", where, True, (("value", value), ("old", "True")))]


RULE = Rule(
    code="DG016",
    name="optimizer-flag-conflict",
    severity=Severity.ERROR,
    summary="fused/foreach/capturable/differentiable flags that cannot work",
    explanation=(
        "`fused=True` works on CPU in current PyTorch for floating parameters and cannot be combined "
        "with `foreach=True` or `differentiable=True` (both raise at construction). "
        "`capturable=True` is for CUDA graphs (cuda/xpu/hpu/xla) and fails on CPU at the first "
        "`step()` with \"If capturable=True, params and state_steps must be on supported devices\". "
        "`differentiable=True` with `foreach=True` (Adam, AdamW, RMSprop and the other foreach "
        "optimizers but SGD) fails at the first `step()` with \"_foreach ops don't support autograd\"."
    ),
    hazards=("H15",),
    reported_at=(
        'the optimizer construction with `fused=True` + `foreach=True`/`differentiable=True`, or '
        '`capturable=True` with CPU parameters; where the flags reach it through `**kwargs`, the write of the '
        'second flag into that dict (`extra_args["foreach"] = ...`), with related information at the construction'
    ),
    errors=(
        ErrorPattern(
            r"`fused` and `foreach` cannot be `True` together",
            "`fused` and `foreach` cannot be `True` together.",
            "hazards.md H15",
        ),
        ErrorPattern(
            r"`fused` does not support `differentiable`",
            "`fused` does not support `differentiable`",
            "hazards.md H15",
        ),
        ErrorPattern(
            r"If capturable=True, params and state_steps must be on supported devices",
            (
                "If capturable=True, params and state_steps must be on supported devices: "
                "['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']."
            ),
            "hazards.md H15",
        ),
        ErrorPattern(
            r"_foreach ops don't support autograd",
            "_foreach ops don't support autograd",
            "tests/realworld26/broken/b22_maml_sine_differentiable_adam_foreach_config.py",
        ),
        ErrorPattern(
            r"`fused=True` requires all the params to be floating point",
            (
                "`fused=True` requires all the params to be floating point Tensors of supported "
                "devices: ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone'] but "
                "torch.int64 and cpu"
            ),
            "hazards.md H15",
        ),
    ),
    hint=(
        "fused=True cannot be combined with foreach=True or differentiable=True, foreach=True "
        "cannot be combined with differentiable=True, and capturable=True is for CUDA graphs only "
        "(it fails on CPU parameters)."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            # the resume workaround written into every optimizer's group, on CPU parameters
            "import torch\nnet = torch.nn.Linear(2, 2)\nopt = torch.optim.Adam(net.parameters())\nopt.load_state_dict(opt.state_dict())\n"
            "for group in opt.param_groups:\n    group['capturable'] = True  # <-\nnet(torch.randn(3, 2)).sum().backward()\nopt.step()\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), fused=True, foreach=True)  # <-\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.AdamW(model.parameters(), capturable=True)  # <-\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), differentiable=True, foreach=True)  # <-\n"
            "model(torch.randn(3, 4)).sum().backward()\nopt.step()\n",
            "import torch\nfrom torch import nn\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nmodel = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1)).to(device)\n"
            "groups = [{'params': model[0].parameters(), 'capturable': True}, {'params': model[1].parameters(), 'lr': 1e-2}]\n"
            "opt = torch.optim.Adam(groups, lr=1e-3)  # <-\n",
        ],
        good=[
            # only when CUDA is there (the model's device follows it): not reported
            "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nnet = torch.nn.Linear(2, 2).to(device)\n"
            "opt = torch.optim.Adam(net.parameters())\nif torch.cuda.is_available():\n    opt.param_groups[0]['capturable'] = True\n"
            "net(torch.randn(3, 2, device=device)).sum().backward()\nopt.step()\n",
            # set back to False, and a learning-rate write: fine on CPU
            "import torch\nnet = torch.nn.Linear(2, 2)\nopt = torch.optim.Adam(net.parameters())\nfor g in opt.param_groups:\n"
            "    g['capturable'] = False\n    g['lr'] = 1e-4\nnet(torch.randn(3, 2)).sum().backward()\nopt.step()\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), fused=True)\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), differentiable=True, foreach=False)\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).cuda()\nopt = torch.optim.AdamW(model.parameters(), capturable=True)\n",
        ],
    ),
)
