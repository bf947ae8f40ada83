# training/benchmarks/dlrm/pytorch/config/_base.py (shrunk)
seed = 1234
device = "cpu"
fp16 = False  # amp keeps float32 master weights; model_to_fp16 must stay off with a GradScaler
amp = True
learning_rate = 0.05
batch_size = 32
max_steps = 3
num_embeddings = 100
embedding_dim = 16
dense_features = 13
local_rank = 0
