"""Pure tournament planning: seating across rounds and tables, Pflichtsolo bookkeeping, standings.

Standard library only, no I/O: the engine persists what these functions return.
"""
