from . import config
from .data import get_synthetic_pairs
from .networks import RegisNet, InverseConsistentNet
