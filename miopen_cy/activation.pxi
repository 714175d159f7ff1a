# The activation group of miopen.h (being written).
