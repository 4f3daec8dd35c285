def top(): pass
