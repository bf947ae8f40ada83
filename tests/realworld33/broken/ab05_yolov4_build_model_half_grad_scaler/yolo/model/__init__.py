from .build import build_model, build_criterion
