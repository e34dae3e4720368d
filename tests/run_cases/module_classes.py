# Every torch.nn class gradcli run builds prints where PyTorch defines it (type(m), or the class itself:
# <class 'torch.nn.modules.pooling.MaxPool2d'>); pooling, batch and instance norm, dropout and the activations
# were printed as <class 'torch.nn.MaxPool2d'>.
import torch.nn as nn

for name in ['AdaptiveAvgPool1d', 'AdaptiveAvgPool2d', 'AdaptiveAvgPool3d', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d',
             'AdaptiveMaxPool3d', 'AvgPool1d', 'AvgPool2d', 'AvgPool3d', 'LPPool1d', 'LPPool2d', 'MaxPool1d',
             'MaxPool2d', 'MaxPool3d', 'AlphaDropout', 'Dropout', 'Dropout1d', 'Dropout2d', 'Dropout3d', 'BCELoss',
             'BCEWithLogitsLoss', 'CrossEntropyLoss', 'GaussianNLLLoss', 'HuberLoss', 'KLDivLoss', 'L1Loss', 'MSELoss',
             'NLLLoss', 'BatchNorm1d', 'BatchNorm2d', 'BatchNorm3d', 'Bilinear', 'Identity', 'LazyLinear', 'Linear',
             'CELU', 'ELU', 'GELU', 'GLU', 'Hardshrink', 'Hardsigmoid', 'Hardswish', 'Hardtanh', 'LeakyReLU',
             'LogSigmoid', 'LogSoftmax', 'Mish', 'PReLU', 'ReLU', 'ReLU6', 'SELU', 'SiLU', 'Sigmoid', 'Softmax',
             'Softmax2d', 'Softmin', 'Softplus', 'Softshrink', 'Softsign', 'Tanh', 'Tanhshrink', 'Threshold',
             'ChannelShuffle', 'ConstantPad1d', 'ReflectionPad2d', 'ZeroPad2d', 'Conv1d', 'Conv2d', 'ConvTranspose2d',
             'CosineSimilarity', 'PairwiseDistance', 'Embedding', 'Flatten', 'GRU', 'LSTMCell', 'RNN',
             'InstanceNorm1d', 'InstanceNorm2d', 'LayerNorm', 'LocalResponseNorm', 'Module', 'ModuleDict',
             'ModuleList', 'Sequential', 'PixelShuffle', 'Upsample', 'UpsamplingBilinear2d']:
    print(getattr(nn, name))
print(type(nn.MaxPool2d(2)), type(nn.BatchNorm1d(3)), type(nn.Tanhshrink()), type(nn.LPPool2d(2, 2)))
