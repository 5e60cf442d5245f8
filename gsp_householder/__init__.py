"""gsp_householder: orthogonal dictionaries that are products of Householder reflectors."""
from gsp_householder.householder import HouseholderProduct

__all__ = ["HouseholderProduct"]
__version__ = "0.1.0"
