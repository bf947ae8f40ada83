# Reliability: `make test` runs tests/reliability with a budget that fits in about 3 minutes;
# `make fuzz` runs the same property tests with many more examples (hypothesmith and generated
# torch programs, mutations, bytes, configuration, the random edit storm) and explores new
# examples instead of replaying the fixed seed of `make test`.
#   make fuzz                      FUZZ_EXAMPLES x the examples of `make test` (default 20)
#   make fuzz FUZZ_EXAMPLES=100    longer
# The verify containment tests do not take examples and are left to `make test`.

FUZZ_EXAMPLES ?= 20

fuzz: setup
	DTYPEGUARD_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(VPY) -m pytest -q -p no:cacheprovider --timeout=7200 \
		tests/reliability --ignore=tests/reliability/test_verify_contains.py \
		-k "not memory_stays_bounded and not vanished_client"
