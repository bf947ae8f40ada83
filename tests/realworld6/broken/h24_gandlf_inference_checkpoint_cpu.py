"""Segmentation inference run with -d cpu (GaNDLF style): the best checkpoint written during GPU training is opened with torch.load before send_model_to_device, without map_location
source: https://github.com/mlcommons/GaNDLF/issues/249
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. (raised during torch.load, before send_model_to_device)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 41
root-cause: line 41
expect: DG010
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization


def get_model(num_channels=1, num_classes=2, base_filters=8):
    return nn.Sequential(
        nn.Conv3d(num_channels, base_filters, 3, padding=1), nn.InstanceNorm3d(base_filters), nn.LeakyReLU(),
        nn.Conv3d(base_filters, num_classes, 1))


def send_model_to_device(model, amp, device, optimizer=None):
    model = model.to(torch.device(device))
    return model, amp, torch.device(device)


def save_model(model_dict, path):
    """Written by the training job on cuda:0 (its storages carry the cuda:0 location tag)."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(model_dict, path)
    finally:
        torch.serialization.location_tag = orig


def inference_loop(inferenceDataFromPickle, device, parameters, outputDir_or_optimizedModel):
    model = get_model()
    file_to_check = os.path.join(outputDir_or_optimizedModel, parameters["model_name"] + "_best.pth.tar")
    main_dict = torch.load(file_to_check)  # root-cause # fails-here
    model.load_state_dict(main_dict["model_state_dict"])
    model, parameters["model"]["amp"], device = send_model_to_device(model, parameters["model"]["amp"], device)
    model.eval()
    with torch.no_grad():
        for subject in inferenceDataFromPickle:
            pred = model(subject.to(device)).argmax(1)
            print("subject foreground voxels:", int(pred.sum()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-m", "--modeldir", default=tempfile.mkdtemp())
    parser.add_argument("-d", "--device", default="cpu")
    args = parser.parse_args()
    parameters = {"model_name": "resunet", "model": {"amp": False}}
    save_model({"epoch": 42, "model_state_dict": get_model().state_dict(), "loss": 0.1234},
               os.path.join(args.modeldir, parameters["model_name"] + "_best.pth.tar"))
    subjects = [torch.rand(1, 1, 8, 8, 8) for _ in range(2)]
    inference_loop(subjects, args.device, parameters, args.modeldir)
