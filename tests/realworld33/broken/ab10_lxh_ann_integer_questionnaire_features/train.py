"""Diabetes screening ANN on questionnaire answers (henryguyu/ml-for-diabetes-screening layout: lxh_prediction/models/ann_model.py trains through nn_utils.Dataset): the questionnaire frame is all integer codes (age, sex, family history, waist), the Dataset hands each row to the model with torch.from_numpy and no .float(), so the ANN's first Linear gets an int64 batch
source: https://github.com/henryguyu/ml-for-diabetes-screening/blob/e9f13ac39c14a678ecdf19735dddb9948965a261/lxh_prediction/models/nn_utils.py
reported-error: (the repository's Dataset calls torch.from_numpy(self.X[i]).float(); the variant without .float() fails on an integer feature frame with RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at lxh_prediction/models/ann_model.py:16
root-cause: lxh_prediction/models/nn_utils.py:13
expect: DG005
"""
import numpy as np
import pandas as pd

from lxh_prediction.models import ANNModel

rng = np.random.default_rng(0)
n = 600
df = pd.DataFrame({
    "Ages": rng.integers(20, 80, n),
    "Gender": rng.integers(0, 2, n),
    "FamilHis": rng.integers(0, 2, n),
    "Hypertension": rng.integers(0, 2, n),
    "WC": rng.integers(60, 120, n),
    "BMI": rng.integers(16, 40, n),
})
label = ((df["WC"] > 95) & (df["Ages"] > 45)).astype(int)
X_train, y_train = df.iloc[:500], label.iloc[:500]
X_test, y_test = df.iloc[500:], label.iloc[500:]

model = ANNModel({"num_epoch": 3}).fit(X_train, y_train)
pred = model.predict(X_test)
print("test accuracy %.3f" % ((pred > 0.5) == y_test.values).mean())
