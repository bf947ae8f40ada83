"""Diabetes screening ANN on questionnaire answers (henryguyu/ml-for-diabetes-screening layout), as the repository does it: the feature frame is all integer codes, and nn_utils.Dataset turns each row into float32 with torch.from_numpy(self.X[i]).float() before it reaches the ANN in ann_model.py; the int labels are collated to int64 for cross_entropy
source: https://github.com/henryguyu/ml-for-diabetes-screening/blob/e9f13ac39c14a678ecdf19735dddb9948965a261/lxh_prediction/models/nn_utils.py
reported-error: (none: the int64 rows are converted in the dataset module, the labels stay integer class indices)
outcome: ok (exit 0)
root-cause: -
expect: none
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
