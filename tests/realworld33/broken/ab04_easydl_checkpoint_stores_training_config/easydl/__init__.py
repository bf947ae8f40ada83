from .config import TrainingConfig, RuntimeConfig
from .trainer import train_supervised_classification
from .utils import load_model_checkpoint
