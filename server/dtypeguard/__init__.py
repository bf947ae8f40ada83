"""dtypeguard: static and runtime checks for PyTorch dtype/device hazards."""

__version__ = "0.1.0"
