"""numpy1"""
