"""Fit a viscoplastic surrogate to tensile-test CSVs (janzenchoi/my_pyoptmat layout: scripts/main.py driving myoptmat/api.py API, myoptmat/controller.py Controller, myoptmat/models/evp.py): importing the API module runs torch.set_default_tensor_type(torch.DoubleTensor), so the model built later has float64 weights, while the controller converts the CSV data to float32 tensors and the first Linear refuses them
source: https://github.com/janzenchoi/my_pyoptmat/blob/23a385f017cc51dfdf23f24bd23e89953dbf049a/myoptmat/api.py
reported-error: (the repository file itself: `import torch; torch.set_default_tensor_type(torch.DoubleTensor)` at the top of myoptmat/api.py; this variant's controller builds float32 data tensors explicitly, so the float64 module fails: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Double)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Double at myoptmat/models/evp.py:15
root-cause: myoptmat/api.py:14
expect: DG002
"""
import os
import tempfile

import numpy as np
import pandas as pd

from myoptmat.api import API


def write_tensile_csvs(folder):
    os.makedirs(folder, exist_ok=True)
    for temp in (20, 650, 800):
        strain = np.linspace(0, 0.2, 40)
        stress = 300 * (1 - np.exp(-30 * strain)) * (1 - temp / 2000)
        pd.DataFrame({"time": np.linspace(0, 100, 40), "temperature": temp, "strain": strain, "stress": stress}).to_csv(
            os.path.join(folder, f"AirBase_{temp}.csv"), index=False)


if __name__ == "__main__":
    root = tempfile.mkdtemp()
    write_tensile_csvs(os.path.join(root, "data", "tensile"))
    api = API("evp", input_dir=os.path.join(root, "data"), output_dir=os.path.join(root, "results"))
    api.read_folder("tensile")
    api.define_model("evp")
    api.scale_data("stress", 0, 1)
    api.optimise(block_size=8, iterations=3, display=True)
    api.display_results()
