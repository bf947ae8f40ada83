import pandas as pd
import torch

from myoptmat.models.evp import EVPSurrogate

MODEL_MAP = {"evp": EVPSurrogate}
INPUT_FIELDS = ["time", "temperature", "strain"]


class Controller:
    def define_model(self, model_name):
        self.model = MODEL_MAP[model_name]()

    def load_csv_files(self, csv_file_list):
        self.frames = [pd.read_csv(f) for f in csv_file_list]

    def define_data_mappers(self, data_scale_dict):
        self.data_scale_dict = data_scale_dict

    def scale_data(self):
        for df in self.frames:
            for name, bounds in self.data_scale_dict.items():
                lo, hi = df[name].min(), df[name].max()
                df[name] = bounds["l_bound"] + (df[name] - lo) / (hi - lo + 1e-12) * (bounds["u_bound"] - bounds["l_bound"])

    def prepare(self, iterations, block_size):
        self.iterations = iterations
        data = pd.concat(self.frames)
        self.inputs = torch.tensor(data[INPUT_FIELDS].values, dtype=torch.float32)
        self.targets = torch.tensor(data[["stress"]].values, dtype=torch.float32)
        self.block_size = block_size
        self.optimiser = torch.optim.Adam(self.model.parameters(), lr=1e-2)

    def optimise(self, display=False):
        for it in range(self.iterations):
            for start in range(0, len(self.inputs), self.block_size):
                x = self.inputs[start:start + self.block_size]
                y = self.targets[start:start + self.block_size]
                loss = torch.nn.functional.mse_loss(self.model(x), y)
                self.optimiser.zero_grad()
                loss.backward()
                self.optimiser.step()
            if display:
                print(f"iteration {it}: loss {loss.item():.4e}")
        self.loss = loss.item()

    def display_results(self):
        print("final loss", self.loss)
