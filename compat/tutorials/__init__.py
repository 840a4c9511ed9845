"""tutorials"""
