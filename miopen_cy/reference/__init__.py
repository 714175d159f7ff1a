"""float64 NumPy references of every operation, written from the formulas and sharing no code with
the library's backends: the driver's verification (miopen_cy.driver) and the tests both check the
library against them. One module per operation: conv, pooling, softmax, activation, lrn, dropout,
batchnorm, tensor."""
from . import activation, batchnorm, conv, ctc, dropout, lrn, pooling, softmax, tensor  # noqa: F401
