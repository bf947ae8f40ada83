"""
 Title:         MycntMat API
 Description:   API for interacting with the MycntMat script
"""
import os
import time
import warnings

import torch

import myoptmat.controller as controller

warnings.filterwarnings("ignore")
torch.set_default_tensor_type(torch.DoubleTensor)  # root-cause


class API:
    def __init__(self, name="", input_dir="./data", output_dir="./results"):
        time_str = time.strftime("%y%m%d%H%M%S", time.localtime(time.time()))
        folder_epilogue = f"_{name}" if name != "" else ""
        self.__input_path__ = input_dir
        self.__output_path__ = f"{output_dir}/{time_str}{folder_epilogue}"
        self.__data_scale_dict__ = {}
        self.__csv_file_list__ = []
        self.__model_name__ = None
        os.makedirs(self.__output_path__, exist_ok=True)

    def read_folder(self, csv_folder):
        csv_folder_path = f"{self.__input_path__}/{csv_folder}"
        self.__csv_file_list__ += sorted(f"{csv_folder_path}/{file}" for file in os.listdir(csv_folder_path) if file.endswith(".csv"))

    def define_model(self, model_name):
        self.__model_name__ = model_name

    def scale_data(self, data_name, l_bound=0, u_bound=1):
        self.__data_scale_dict__[data_name] = {"l_bound": l_bound, "u_bound": u_bound}

    def optimise(self, block_size=40, iterations=5, display=False):
        self.controller = controller.Controller()
        self.controller.define_model(self.__model_name__)
        self.controller.load_csv_files(self.__csv_file_list__)
        self.controller.define_data_mappers(self.__data_scale_dict__)
        self.controller.scale_data()
        self.controller.prepare(iterations, block_size)
        self.controller.optimise(display)

    def display_results(self):
        self.controller.display_results()
