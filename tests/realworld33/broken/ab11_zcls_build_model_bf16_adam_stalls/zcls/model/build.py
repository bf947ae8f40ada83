# -*- coding: utf-8 -*-

"""
@file: build.py
@description: build the classification model from the command-line arguments
"""

import torch

from . import small_nets as models


def build_model(args, memory_format):
    # create model
    print("=> creating model '{}'".format(args.arch))
    model = models.__dict__[args.arch]()

    model = model.to(memory_format=memory_format)
    if args.low_precision:
        # half the memory and bandwidth of float32, and no loss scaling needed unlike fp16
        model = model.to(torch.bfloat16)  # root-cause

    return model
