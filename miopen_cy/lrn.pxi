# The lrn group of miopen.h (being written).
