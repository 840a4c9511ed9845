"""scipy_legacy"""
