"""The VTES table screen's widgets, one module per area (the open action: :mod:`.action`)."""
