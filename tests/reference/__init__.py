"""float64 NumPy references, sharing no code with the backends."""
