def h(): pass
