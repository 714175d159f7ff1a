# The batchnorm group of miopen.h (being written).
