# The bias group of miopen.h (being written).
