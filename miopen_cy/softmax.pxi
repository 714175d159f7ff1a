# The softmax group of miopen.h (being written).
