# The pooling group of miopen.h (being written).
