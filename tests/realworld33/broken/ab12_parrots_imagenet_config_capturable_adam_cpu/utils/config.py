"""Trainer configuration (the yaml of models/imagenet/configs, as a dict)."""


class AttrDict(dict):
    def __getattr__(self, name):
        return self[name]


trainer = AttrDict(
    mixed_training=False,
    epochs=2,
    optimizer=AttrDict(
        type="Adam",
        kwargs=AttrDict(lr=1e-3, weight_decay=1e-4, capturable=True),  # root-cause
    ),
)
