import torch

DTYPES = {"float32": torch.float32, "float64": torch.float64}


def set_precision(pinn, precision):
    """Switch the network and the training points of a PhysicsInformedNN to `precision`."""
    dtype = DTYPES[precision]
    pinn.dnn.to(dtype)  # root-cause
    for name in ("x_u", "t_u", "x_f", "t_f", "u"):
        setattr(pinn, name, getattr(pinn, name).detach().to(dtype).requires_grad_(name in ("x_f", "t_f")))
