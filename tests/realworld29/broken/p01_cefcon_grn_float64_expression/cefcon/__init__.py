from .cell_lineage_GRN import NetModel
from .datasets import data_preparation

__all__ = ["NetModel", "data_preparation"]
