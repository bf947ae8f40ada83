import torch


def load_model_checkpoint(model, path, device='cpu'):
    ckpt = torch.load(path, map_location=device)
    model.load_state_dict(ckpt['model'])
    return model, ckpt.get('epoch', 0)
