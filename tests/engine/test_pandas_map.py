"""The engine's dtype for `Series.map` of a dict literal compared with what pandas really gives
(labels mapped to 0/1 end up in BCELoss and CrossEntropyLoss)."""

from __future__ import annotations

import pandas as pd
import pytest

from dtypeguard.analysis.check import check_source

TABLES = ["{'paid': 0, 'default': 1}", "{'paid': 0.0, 'default': 1}", "{'paid': True, 'default': False}", "{'paid': 0.5, 'default': 1.5}"]


@pytest.mark.parametrize("table", TABLES)
def test_map_of_a_dict_has_pandas_dtype(table: str) -> None:
    real = pd.Series(["paid", "default", "paid"]).map(eval(table))
    text = f"import pandas as pd\ndf = pd.DataFrame({{'status': ['paid', 'default', 'paid']}})\nm = df['status'].map({table})\n"
    facts = check_source(text).facts
    assert facts is not None
    stored = [v.value for v in facts.values if v.store and v.name == "m"]
    assert stored and getattr(stored[-1], "dtype", None) == str(real.dtype)


def test_map_of_mixed_or_computed_values_is_unknown() -> None:
    text = "import pandas as pd\ndf = pd.DataFrame({'s': ['a', 'b']})\nm = df['s'].map({'a': 0, 'b': 'x'})\nn = df['s'].map({'a': len('a')})\n"
    facts = check_source(text).facts
    assert facts is not None
    assert not [v for v in facts.values if v.store and v.name in ("m", "n") and getattr(v.value, "dtype", None)]
