"""Config objects of other libraries that checkpoints often carry (`{"config": cfg, ...}`):
the call that makes one and the class it makes. Each is pickled by reference to a class that
torch's weights-only unpickler does not allow, so a checkpoint holding one fails to load with the
`weights_only=True` default (DG011; packnet-sfm's yacs `CfgNode`, scan 28). Checked against the
installed yacs, omegaconf and torch by tests/engine/test_library_conformance.py (a real save and
weights-only load of each).
"""

from __future__ import annotations

# the call that makes one -> the class it makes
CONFIG_MAKERS: dict[str, str] = {
    "yacs.config.CfgNode": "yacs.config.CfgNode",
    "omegaconf.OmegaConf.create": "omegaconf.DictConfig",  # (of a list: a ListConfig, refused as well)
    "omegaconf.OmegaConf.structured": "omegaconf.DictConfig",
    "omegaconf.OmegaConf.merge": "omegaconf.DictConfig",
    "omegaconf.OmegaConf.load": "omegaconf.DictConfig",
    "omegaconf.DictConfig": "omegaconf.DictConfig",
    "omegaconf.dictconfig.DictConfig": "omegaconf.DictConfig",
    "omegaconf.ListConfig": "omegaconf.ListConfig",
}
