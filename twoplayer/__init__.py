"""twoplayer"""
