CONFIG = {}
